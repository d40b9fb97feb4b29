/**
 * Text that came from outside claudecm (transcripts, file names, the
 * registry) made safe for a terminal (DESIGN.md 5.17). A transcript can hold
 * escape sequences that set the window title, write the clipboard (OSC 52)
 * or clear the screen; shown raw, they would act. Every Output shows text
 * through {@linkcode visibleText}; names claudecm stores go through
 * {@linkcode cleanName}; `--json` goes through {@linkcode safeJson}.
 *
 * @module
 */

/** C0 controls, DEL and C1 controls. */
// deno-lint-ignore no-control-regex -- control characters are exactly what it looks for
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;
/** Controls and escape sequences (CSI, OSC with its terminator, and two-byte ESC forms), 7- and 8-bit. */
const SEQUENCES =
  // deno-lint-ignore no-control-regex -- escape sequences are exactly what it looks for
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[\x20-\x7e]?/g;

/** One control character as a person can read it: `^[` for ESC, `^?` for DEL, `<9B>` for C1. */
function shown(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return "^?";
  return `<${code.toString(16).toUpperCase()}>`;
}

/**
 * `text` with every control character shown visibly (`^[`, `^G`, `<9B>`), so
 * an escape sequence prints as inert text. `keep` lists the controls left as
 * they are: newline and tab by default (the output's own layout).
 */
export function visibleText(text: string, keep = "\n\t"): string {
  return text.replace(CONTROLS, (char) => keep.includes(char) ? char : shown(char));
}

/**
 * A name fit to store in the registry and show: escape sequences dropped,
 * every other control character (line breaks, tabs) a space, runs of spaces
 * one, trimmed.
 */
export function cleanName(text: string): string {
  return text.replace(SEQUENCES, "").replace(CONTROLS, " ").replace(/\s+/g, " ").trim();
}

/**
 * JSON text of `value` in which every control character is escaped.
 * JSON.stringify escapes C0 controls but leaves DEL and C1 controls (a
 * terminal reads `\x9b` as CSI) raw; `\u007f`-style escapes read back to the
 * same string.
 */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\x7f-\x9f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
