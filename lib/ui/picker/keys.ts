/**
 * The picker's key decoder: bytes read from a terminal in raw mode, in
 * whatever pieces the reads return, to keys. A terminal sends a key as one
 * byte (a letter, Ctrl-N as 0x0e), as UTF-8 (which a read may split), or as
 * an escape sequence, and the same key comes in several spellings: Home is
 * `ESC [ H`, `ESC O H`, `ESC [ 1 ~` or `ESC [ 7 ~` depending on the terminal
 * and its mode. A lone ESC is the Escape key only when nothing follows it
 * soon: the caller asks {@linkcode KeyDecoder.flush} after a short wait
 * (ESC then a letter in one read is Alt plus that letter). Windows Terminal
 * and conhost send the same sequences once VT input is on. Pasted text
 * arrives whole as one paste when the terminal brackets it (the picker asks
 * for that), so a pasted line break is not an Enter.
 *
 * @module
 */

/** Keys with a name of their own. */
export type NamedKey =
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "pageUp"
  | "pageDown"
  | "insert"
  | "delete"
  | "enter"
  | "tab"
  | "backTab"
  | "backspace"
  | "escape";

/** One key press. */
export type Key =
  | { kind: "text"; text: string }
  | { kind: "named"; name: NamedKey }
  /** Ctrl with a letter (`a`..`z`), or Ctrl-Space as `space`, Ctrl-\ as `\\`... */
  | { kind: "ctrl"; letter: string }
  | { kind: "alt"; key: Key }
  /** Text pasted while bracketed paste is on: never a key, whatever it holds (a newline is no Enter). */
  | { kind: "paste"; text: string }
  /** A sequence no key here has (a function key, a mouse report): dropped. */
  | { kind: "unknown"; sequence: string };

/** Bytes in, keys out; keeps what a read left incomplete. */
export interface KeyDecoder {
  /** Decode `bytes` with what was left before; an incomplete tail waits for the next read. */
  feed(bytes: Uint8Array): Key[];
  /** Whether bytes wait (a lone ESC, half a sequence or a character). */
  pending(): boolean;
  /** No more bytes came soon: what waits is taken as typed (a lone ESC is Escape). */
  flush(): Key[];
}

const ESC = 0x1b;

/** The final byte of `ESC [ ... X` and `ESC O X` forms. */
const FINAL_KEYS: Record<string, NamedKey> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  Z: "backTab",
};

/** `ESC [ N ~`: vt220 and rxvt numbers. */
const TILDE_KEYS: Record<string, NamedKey> = {
  "1": "home",
  "2": "insert",
  "3": "delete",
  "4": "end",
  "5": "pageUp",
  "6": "pageDown",
  "7": "home",
  "8": "end",
};

/** A new decoder with nothing pending. */
export function createKeyDecoder(): KeyDecoder {
  let held: number[] = [];
  return {
    feed(bytes) {
      held.push(...bytes);
      const { keys, rest } = decode(held, false);
      held = rest;
      return keys;
    },
    pending: () => held.length > 0,
    flush() {
      const { keys } = decode(held, true);
      held = [];
      return keys;
    },
  };
}

/** Keys in `bytes`; `rest` is an incomplete tail unless `final`, when everything is taken. */
function decode(bytes: number[], final: boolean): { keys: Key[]; rest: number[] } {
  const keys: Key[] = [];
  let at = 0;
  while (at < bytes.length) {
    const step = bytes[at] === ESC ? escapeAt(bytes, at, final) : plainAt(bytes, at, final);
    if (step === null) return { keys, rest: bytes.slice(at) };
    if (step.key !== undefined) keys.push(step.key);
    at += step.length;
  }
  return { keys, rest: [] };
}

type Step = { key?: Key; length: number } | null;

/** A key that is not an escape sequence: a control byte or one UTF-8 character. */
function plainAt(bytes: number[], at: number, final: boolean): Step {
  const byte = bytes[at];
  if (byte < 0x20 || byte === 0x7f) return { key: controlKey(byte), length: 1 };
  const length = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  let end = at + 1;
  while (end < at + length && end < bytes.length && (bytes[end] & 0xc0) === 0x80) end++;
  // Half a character: the rest comes with the next read.
  if (end === bytes.length && end < at + length && !final) return null;
  const text = new TextDecoder().decode(new Uint8Array(bytes.slice(at, end)));
  return { key: { kind: "text", text }, length: end - at };
}

function controlKey(byte: number): Key {
  if (byte === 0x0d || byte === 0x0a) return { kind: "named", name: "enter" };
  if (byte === 0x09) return { kind: "named", name: "tab" };
  if (byte === 0x7f || byte === 0x08) return { kind: "named", name: "backspace" };
  if (byte === 0x00) return { kind: "ctrl", letter: "space" };
  if (byte <= 0x1a) return { kind: "ctrl", letter: String.fromCharCode(byte + 0x60) };
  return { kind: "ctrl", letter: String.fromCharCode(byte + 0x40) };
}

/** A key that starts with ESC: a sequence, Alt plus a key, or Escape. */
function escapeAt(bytes: number[], at: number, final: boolean): Step {
  if (at + 1 >= bytes.length) {
    return final ? { key: { kind: "named", name: "escape" }, length: 1 } : null;
  }
  const next = bytes[at + 1];
  if (next === 0x5b) return csiAt(bytes, at, final);
  if (next === 0x4f) {
    // SS3: `ESC O X` (application cursor keys, some terminals' Home/End and F1-F4).
    if (at + 2 >= bytes.length) {
      return final ? { key: { kind: "alt", key: { kind: "text", text: "O" } }, length: 2 } : null;
    }
    const final3 = String.fromCharCode(bytes[at + 2]);
    const name = FINAL_KEYS[final3];
    return {
      key: name ? { kind: "named", name } : { kind: "unknown", sequence: `ESC O ${final3}` },
      length: 3,
    };
  }
  if (next === ESC) return { key: { kind: "named", name: "escape" }, length: 1 };
  // Alt plus a key: the key's own bytes after the ESC.
  const inner = plainAt(bytes, at + 1, final);
  if (inner === null) return null;
  return { key: { kind: "alt", key: inner.key! }, length: 1 + inner.length };
}

/** The end of a bracketed paste: `ESC [ 201 ~`. */
const PASTE_END = [0x1b, 0x5b, 0x32, 0x30, 0x31, 0x7e];

/** A bracketed paste whose start marker (`ESC [ 200 ~`) ends at `from`: up to its end marker. */
function pasteAt(bytes: number[], at: number, from: number, final: boolean): Step {
  let end = from;
  while (end + PASTE_END.length <= bytes.length) {
    if (PASTE_END.every((byte, i) => bytes[end + i] === byte)) {
      const text = new TextDecoder().decode(new Uint8Array(bytes.slice(from, end)));
      return { key: { kind: "paste", text }, length: end + PASTE_END.length - at };
    }
    end++;
  }
  if (!final) return null;
  // The end marker never came: what came is the paste.
  const text = new TextDecoder().decode(new Uint8Array(bytes.slice(from)));
  return { key: { kind: "paste", text }, length: bytes.length - at };
}

/** `ESC [ params final`: cursor keys (with modifiers, `ESC [ 1 ; 5 A`), `ESC [ 5 ~`... */
function csiAt(bytes: number[], at: number, final: boolean): Step {
  let end = at + 2;
  while (end < bytes.length && bytes[end] >= 0x20 && bytes[end] <= 0x3f) end++;
  if (end >= bytes.length) {
    // Cut off by the read: wait; at a flush, what came is no key.
    return final ? { key: { kind: "unknown", sequence: "ESC [" }, length: end - at } : null;
  }
  const finalByte = bytes[end];
  const params = String.fromCharCode(...bytes.slice(at + 2, end));
  const length = end - at + 1;
  const sequence = `ESC [ ${params}${String.fromCharCode(finalByte)}`;
  if (finalByte < 0x40 || finalByte > 0x7e) return { key: { kind: "unknown", sequence }, length };
  const letter = String.fromCharCode(finalByte);
  if (letter === "~" && params === "200") return pasteAt(bytes, at, at + length, final);
  const name = letter === "~" ? TILDE_KEYS[params.split(";")[0]] : FINAL_KEYS[letter];
  return { key: name ? { kind: "named", name } : { kind: "unknown", sequence }, length };
}
