/**
 * Crossing one JSON line in its raw bytes, without parsing it: skip a string,
 * a member's value or any value (json_read.ts walks objects and reads values
 * on top of these). The peeks (scan.ts, scan_assistant.ts) are built on them. String contents are
 * skipped with a native `indexOf` (on the line's latin1 copy, see latin1.ts,
 * when the scanner made one), so a multi-megabyte string costs a few calls,
 * not a byte loop.
 *
 * The walk checks the structure (quotes, brackets, colons, commas, literals)
 * but not what is inside strings (escape letters, raw control characters,
 * UTF-8): every function returns -1 or undefined on input it cannot follow,
 * and the callers then fall back to JSON.parse.
 *
 * @module
 */

/**
 * A line as the peeks read it: its bytes, and the same bytes as latin1 for
 * native searches when the scanner made that copy (lines.ts); bare bytes are
 * searched with `Uint8Array.indexOf`, several times slower on long strings.
 */
export interface JsonBytes {
  bytes: Uint8Array;
  latin1?: string;
}

/** What the peeks accept: a line from the scanner, or bare bytes. */
export type PeekInput = Uint8Array | JsonBytes;

/** `"` */
export const QUOTE = 0x22;
/** `\` */
export const BACKSLASH = 0x5c;
/** `{` */
export const LBRACE = 0x7b;
/** `}` */
export const RBRACE = 0x7d;
/** `[` */
export const LBRACKET = 0x5b;
/** `]` */
export const RBRACKET = 0x5d;
/** `:` */
export const COLON = 0x3a;
/** `,` */
export const COMMA = 0x2c;
/** How far {@linkcode skipString} looks byte by byte before searching natively. */
const SHORT_STRING = 48;
/** Deeper values are left to JSON.parse rather than risk the stack. */
const MAX_DEPTH = 500;

const encoder = new TextEncoder();
const TRUE = encoder.encode("true");
const FALSE = encoder.encode("false");
const NULL = encoder.encode("null");
const keys = new Map<string, Uint8Array>();

/** The peek input as a {@linkcode JsonBytes}. */
export function asJsonBytes(input: PeekInput): JsonBytes {
  return input instanceof Uint8Array ? { bytes: input } : input;
}

/** The UTF-8 bytes of a key name, encoded once per name. */
export function keyBytes(key: string): Uint8Array {
  let bytes = keys.get(key);
  if (bytes === undefined) keys.set(key, bytes = encoder.encode(key));
  return bytes;
}

/** Index just past the string whose opening quote is at `start`; -1 if it never closes. */
export function skipString(line: JsonBytes, start: number): number {
  const short = line.latin1 === undefined
    ? shortStringEnd(line.bytes, start)
    : plainStringEnd(line.bytes, line.latin1, start);
  if (short !== -1) return short;
  const b = line.bytes;
  let i = start + 1;
  while (true) {
    const quote = line.latin1 === undefined ? b.indexOf(QUOTE, i) : line.latin1.indexOf('"', i);
    if (quote === -1) return -1;
    let slashes = 0;
    for (let k = quote - 1; k > start && b[k] === BACKSLASH; k--) slashes++;
    if ((slashes & 1) === 0) return quote + 1;
    i = quote + 1;
  }
}

/**
 * Index just past the string at `start` when it closes within
 * {@linkcode SHORT_STRING} bytes, else -1. Most strings (keys, ids, flags)
 * do, and a plain loop beats a native call on them.
 */
function shortStringEnd(b: Uint8Array, start: number): number {
  const near = Math.min(b.length, start + SHORT_STRING);
  for (let i = start + 1; i < near; i++) {
    const c = b[i];
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) i++;
  }
  return -1;
}

/**
 * Index just past the string at `start` when its first quote closes it (no
 * backslash right before), else -1. One native search on the line's latin1
 * copy: on this slow a loop (about 2 ns a byte) it beats
 * {@linkcode shortStringEnd} on all but the shortest strings.
 */
function plainStringEnd(b: Uint8Array, text: string, start: number): number {
  const quote = text.indexOf('"', start + 1);
  return quote === -1 || b[quote - 1] === BACKSLASH ? -1 : quote + 1;
}

/**
 * {@linkcode skipValue} for the value of an object member. A long string
 * value (a tool result's output, a written file, a text block) is crossed
 * without visiting its escaped quotes when the key after it can be found (see
 * {@linkcode stringEndBeforeKey}); else, and for any other value, it is
 * {@linkcode skipValue}.
 */
export function skipMemberValue(line: JsonBytes, i: number): number {
  const start = skipSpace(line.bytes, i);
  if (line.bytes[start] === QUOTE && line.latin1 !== undefined) {
    const end = plainStringEnd(line.bytes, line.latin1, start);
    if (end !== -1) return end;
    const long = stringEndBeforeKey(line.bytes, line.latin1, start);
    if (long !== -1) return long;
  }
  return skipValue(line, start);
}

/**
 * Index just past the string opening at `start`, found from the next key
 * after it; -1 when that cannot be shown (then the string is walked quote by
 * quote). Escaped text is full of `\"`, one native search each; a colon is
 * rarer, and one search finds the next colon.
 *
 * Why it is exact on valid JSON, for a string that is a member's value: a
 * quote inside a string always has an odd run of backslashes before it, so a
 * quote with an even run is structural. The first colon after `start` whose
 * last non-space byte before it is such a quote (at `close`) ends a key, or
 * is the first byte of a string (refused: no word bytes and a quote lead to
 * that string's opening quote). The key is word bytes back to its opening
 * quote (`open`); before it, past brackets, commas and spaces only, is a
 * quote (`end`), which ends a string (no quote lies between to close one
 * opened there). When that string is followed by `}`, or by `,` and the key,
 * it is a member's value, and it is the one opening at `start`: otherwise
 * the key of its member would lie between the two, and that key's colon
 * would have come first. A string followed by `]` or by `,` and a bracket
 * may be an array element; it is refused.
 */
function stringEndBeforeKey(b: Uint8Array, text: string, start: number): number {
  let from = start + 1;
  while (true) {
    const colon = text.indexOf(":", from);
    if (colon === -1) return -1;
    let close = colon - 1;
    while (close > start && isSpace(b[close])) close--;
    if (close > start && b[close] === QUOTE && evenBackslashes(b, close, start)) {
      let open = close - 1;
      while (open > start && isWordByte(b[open])) open--;
      if (b[open] !== QUOTE) return -1;
      let end = open - 1;
      while (end > start && isSpaceOrPunctuation(b[end])) end--;
      if (end <= start || b[end] !== QUOTE) return -1;
      const after = skipSpace(b, end + 1);
      const member = b[after] === RBRACE ||
        (b[after] === COMMA && skipSpace(b, after + 1) === open);
      return member ? end + 1 : -1;
    }
    from = colon + 1;
  }
}

/** Bytes that may lie between a member's value and the next key: spaces, brackets, commas. */
function isSpaceOrPunctuation(c: number): boolean {
  return isSpace(c) || c === COMMA || c === RBRACE || c === RBRACKET || c === LBRACE ||
    c === LBRACKET;
}

/** Whether the quote at `quote` has an even run of backslashes before it (none counts), after `start`. */
function evenBackslashes(b: Uint8Array, quote: number, start: number): boolean {
  let k = quote - 1;
  while (k > start && b[k] === BACKSLASH) k--;
  return ((quote - 1 - k) & 1) === 0;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** A byte of a key name the key-anchored skip accepts: ASCII letters, digits, `_`. */
function isWordByte(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) ||
    c === 0x5f;
}

/** Index of the first non-whitespace byte at or after `i`. */
export function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i++;
  }
  return i;
}

/** Index just past the JSON value starting at or after `i`; -1 if malformed. */
export function skipValue(line: JsonBytes, i: number, depth = 0): number {
  const b = line.bytes;
  i = skipSpace(b, i);
  const first = b[i];
  if (first === QUOTE) return skipString(line, i);
  if (first === LBRACE || first === LBRACKET) {
    if (depth >= MAX_DEPTH) return -1;
    const object = first === LBRACE;
    const close = object ? RBRACE : RBRACKET;
    i = skipSpace(b, i + 1);
    if (b[i] === close) return i + 1;
    while (true) {
      if (object) {
        if (b[i] !== QUOTE) return -1;
        i = skipString(line, i);
        if (i === -1) return -1;
        i = skipSpace(b, i);
        if (b[i] !== COLON) return -1;
        i++;
      }
      i = skipValue(line, i, depth + 1);
      if (i === -1) return -1;
      i = skipSpace(b, i);
      if (b[i] === close) return i + 1;
      if (b[i] !== COMMA) return -1;
      i = skipSpace(b, i + 1);
    }
  }
  return literalEnd(b, i);
}

/** Index just past the `true`, `false`, `null` or number at `i`; -1 if there is none. */
function literalEnd(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === 0x74) return sameBytes(b, i, i + 4, TRUE) ? i + 4 : -1;
  if (c === 0x66) return sameBytes(b, i, i + 5, FALSE) ? i + 5 : -1;
  if (c === 0x6e) return sameBytes(b, i, i + 4, NULL) ? i + 4 : -1;
  if (b[i] === 0x2d) i++; // -
  if (b[i] === 0x30) i++; // a lone 0
  else if (isDigit(b[i])) { while (isDigit(b[i])) i++; }
  else return -1;
  if (b[i] === 0x2e) { // .
    if (!isDigit(b[++i])) return -1;
    while (isDigit(b[i])) i++;
  }
  if (b[i] === 0x65 || b[i] === 0x45) { // e E
    i++;
    if (b[i] === 0x2b || b[i] === 0x2d) i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  return i;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether the bytes from `at` to `end` spell `name`. */
export function sameBytes(b: Uint8Array, at: number, end: number, name: Uint8Array): boolean {
  if (end - at !== name.length) return false;
  for (let k = 0; k < name.length; k++) {
    if (b[at + k] !== name[k]) return false;
  }
  return true;
}
