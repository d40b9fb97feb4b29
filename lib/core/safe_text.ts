/**
 * Text that came from outside claudecm (transcripts, file names, the
 * registry) made safe for a terminal (DESIGN.md 5.17). A transcript can hold
 * escape sequences that set the window title, write the clipboard (OSC 52)
 * or clear the screen; shown raw, they would act. Bidirectional controls
 * (U+202E and its kin) are not escapes, but they make a terminal show text
 * in another order than it is, so a name can pass for another: they are
 * treated as controls too. Every Output shows text
 * through {@linkcode visibleText}; names claudecm stores go through
 * {@linkcode cleanName}; `--json` goes through {@linkcode safeJson}.
 *
 * @module
 */

/** C0 controls, DEL and C1 controls. */
// deno-lint-ignore no-control-regex -- control characters are exactly what it looks for
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;
/**
 * The bidirectional embeddings, overrides and isolates (the "Trojan Source"
 * set), as a character class's members. The marks (U+200E, U+200F, U+061C)
 * stay: right-to-left text needs them, and they reorder no letters.
 */
const BIDI_MEMBERS = "\\u202a-\\u202e\\u2066-\\u2069";
const BIDI = new RegExp(`[${BIDI_MEMBERS}]`, "g");
/** Controls and escape sequences (CSI, OSC with its terminator, and two-byte ESC forms), 7- and 8-bit. */
const SEQUENCES =
  // deno-lint-ignore no-control-regex -- escape sequences are exactly what it looks for
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[\x20-\x7e]?/g;

/**
 * One control character as a person can read it: `^[` for ESC, `^?` for
 * DEL, `<9B>` for C1, `<U+202E>` for a bidirectional control.
 */
function shown(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return "^?";
  if (code > 0xff) return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
  return `<${code.toString(16).toUpperCase()}>`;
}

/**
 * `text` with every control character shown visibly (`^[`, `^G`, `<9B>`), so
 * an escape sequence prints as inert text. `keep` lists the controls left as
 * they are: newline and tab by default (the output's own layout).
 */
export function visibleText(text: string, keep = "\n\t"): string {
  return text.replace(controlsShownWith(keep), shown);
}

/** Each `keep`'s pattern, made once: the controls `visibleText` shows. */
const shownControls = new Map<string, RegExp>();

/**
 * The controls outside `keep`. Kept ones are left out of the pattern rather
 * than matched and given back: a --json document has a newline on every line,
 * and a replacer call for each made printing it cost more than building it.
 */
function controlsShownWith(keep: string): RegExp {
  let pattern = shownControls.get(keep);
  if (pattern === undefined) {
    let members = "";
    for (let code = 0; code <= 0x9f; code = code === 0x1f ? 0x7f : code + 1) {
      if (!keep.includes(String.fromCharCode(code))) {
        members += `\\x${code.toString(16).padStart(2, "0")}`;
      }
    }
    pattern = new RegExp(`[${members}${BIDI_MEMBERS}]`, "g");
    shownControls.set(keep, pattern);
  }
  return pattern;
}

/**
 * A name fit to store in the registry and show: escape sequences and
 * bidirectional controls dropped, every other control character (line
 * breaks, tabs) a space, runs of spaces one, trimmed.
 */
export function cleanName(text: string): string {
  return text.replace(SEQUENCES, "").replace(BIDI, "").replace(CONTROLS, " ")
    .replace(/\s+/g, " ").trim();
}

/** What safeJson escapes beyond JSON.stringify. */
const JSON_UNSAFE = new RegExp(`[\\x7f-\\x9f${BIDI_MEMBERS}]`, "g");

/**
 * JSON text of `value` in which every control character is escaped.
 * JSON.stringify escapes C0 controls but leaves DEL, C1 controls (a
 * terminal reads `\x9b` as CSI) and bidirectional controls raw;
 * `\u007f`-style escapes read back to the same string.
 */
export function safeJson(value: unknown, indent?: number): string {
  let json = JSON.stringify(value, null, indent);
  // A lone surrogate (a byte lossless_text.ts keeps for a round trip) is no character: JSON.stringify
  // writes it as \udcXX, which strict readers refuse. Only an odd run of backslashes escapes.
  if (json.includes("\\ud")) {
    json = json.replace(
      SURROGATE_ESCAPE,
      (all, slashes: string) => slashes.length % 2 === 1 ? `${slashes}ufffd` : all,
    );
  }
  return json.replace(
    JSON_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `\ud800` to `\udfff` with the backslashes before it: JSON.stringify's escape of a lone surrogate. */
const SURROGATE_ESCAPE = /(\\+)ud[89a-f][0-9a-f]{2}/g;
