/**
 * Reading one JSON line in its raw bytes, on top of the skips of
 * json_bytes.ts: walk an object's keys or an array's elements, find a key,
 * read a string or any value at a position. Every function returns -1 or
 * undefined on input it cannot follow, and the callers then fall back to
 * JSON.parse.
 *
 * @module
 */

import {
  BACKSLASH,
  COLON,
  COMMA,
  type JsonBytes,
  LBRACE,
  LBRACKET,
  QUOTE,
  RBRACE,
  RBRACKET,
  sameBytes,
  skipMemberValue,
  skipSpace,
  skipString,
} from "./json_bytes.ts";

/** What JSON.parse must see to read a string: an escape, or a control character it rejects. */
// deno-lint-ignore no-control-regex -- control characters are exactly what it looks for
const ESCAPE_OR_CONTROL = /[\x00-\x1f\\]/;
/** V8 copies a slice shorter than this instead of pointing into the sliced string. */
const SLICE_COPIED = 13;
/** Strings up to this many bytes are checked by a byte loop rather than a regex and a decoder call. */
const SHORT_TEXT = 256;

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Calls `visit` with each key of the object that opens at or after `start`
 * (its name's bytes from `nameStart` to `nameEnd`) and where its value
 * starts; `visit` returns where that value ends, or -1 to give up. Returns
 * the index just past the object, or -1 if it is malformed or `visit` gave up.
 */
export function walkObject(
  line: JsonBytes,
  start: number,
  visit: (nameStart: number, nameEnd: number, valueStart: number) => number,
): number {
  const b = line.bytes;
  let i = skipSpace(b, start);
  if (b[i] !== LBRACE) return -1;
  i = skipSpace(b, i + 1);
  if (b[i] === RBRACE) return i + 1;
  while (true) {
    if (b[i] !== QUOTE) return -1;
    const keyEnd = skipString(line, i);
    if (keyEnd === -1) return -1;
    const nameStart = i + 1;
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) return -1;
    i = visit(nameStart, keyEnd - 1, skipSpace(b, i + 1));
    if (i === -1) return -1;
    i = skipSpace(b, i);
    if (b[i] === RBRACE) return i + 1;
    if (b[i] !== COMMA) return -1;
    i = skipSpace(b, i + 1);
  }
}

/**
 * Calls `visit` with where each element of the array that opens at or after
 * `start` begins; `visit` returns where the element ends, or -1 to give up.
 * Returns the index just past the array, or -1.
 */
export function walkArray(
  line: JsonBytes,
  start: number,
  visit: (valueStart: number) => number,
): number {
  const b = line.bytes;
  let i = skipSpace(b, start);
  if (b[i] !== LBRACKET) return -1;
  i = skipSpace(b, i + 1);
  if (b[i] === RBRACKET) return i + 1;
  while (true) {
    i = visit(i);
    if (i === -1) return -1;
    i = skipSpace(b, i);
    if (b[i] === RBRACKET) return i + 1;
    if (b[i] !== COMMA) return -1;
    i = skipSpace(b, i + 1);
  }
}

/**
 * Where the value of `key` starts in the object that opens at or after
 * `objectStart`, looking at that object's own keys only (the first match);
 * -1 if absent or the object cannot be followed that far.
 */
export function findKey(line: JsonBytes, objectStart: number, key: Uint8Array): number {
  let found = -1;
  walkObject(line, objectStart, (nameStart, nameEnd, valueStart) => {
    if (keyIs(line, nameStart, nameEnd, key)) {
      found = valueStart;
      return -1;
    }
    return skipMemberValue(line, valueStart);
  });
  return found;
}

/**
 * Whether the key name from `nameStart` to `nameEnd` is `key`. A name with an
 * escape (`"\u0063wd"`) is decoded first; it is always longer than the name
 * it spells, so a key of `key`'s length or shorter is compared as bytes only.
 */
export function keyIs(
  line: JsonBytes,
  nameStart: number,
  nameEnd: number,
  key: Uint8Array,
): boolean {
  if (sameBytes(line.bytes, nameStart, nameEnd, key)) return true;
  if (nameEnd - nameStart <= key.length || !hasEscapeOrControl(line.bytes, nameStart, nameEnd)) {
    return false;
  }
  return decodeJsonString(line.bytes.subarray(nameStart - 1, nameEnd + 1)) === decoder.decode(key);
}

/**
 * The string at `valueStart`, decoded; undefined when there is none there or
 * it is not valid JSON. One without escapes is read from its bytes; one with
 * escapes (every Windows path has them) is decoded by JSON.parse.
 */
export function stringAt(line: JsonBytes, valueStart: number): string | undefined {
  if (valueStart < 0 || line.bytes[valueStart] !== QUOTE) return undefined;
  const end = skipString(line, valueStart);
  if (end === -1) return undefined;
  return unescapedText(line, valueStart + 1, end - 1) ??
    decodeJsonString(line.bytes.subarray(valueStart, end));
}

/** A raw JSON string, quotes included, as JSON.parse reads it; undefined when it is not one. */
export function decodeJsonString(raw: Uint8Array): string | undefined {
  try {
    const value = JSON.parse(decoder.decode(raw));
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The JSON value from `start` to `end` exactly as JSON.parse gives it; a
 * string without escapes (the common case) is decoded without JSON.parse.
 * Throws a SyntaxError when the bytes are not valid JSON.
 */
export function valueAt(line: JsonBytes, start: number, end: number): unknown {
  if (line.bytes[start] === QUOTE) {
    const text = unescapedText(line, start + 1, end - 1);
    if (text !== undefined) return text;
  }
  return JSON.parse(decoder.decode(line.bytes.subarray(start, end)));
}

/**
 * The inside of a string from `from` to `to`, when it holds no escape and no
 * control character (its UTF-8 bytes are then the value); else undefined.
 * The result is a string of its own: a slice of the line's latin1 would keep
 * the whole read chunk alive as long as the caller keeps the value (file
 * paths are kept to the end of a pass), so a slice is copied (`ownCopy`).
 * Most values (ids, paths, names, flags) are short ASCII: they are checked
 * byte by byte and copied out of the latin1, which costs a fraction of a
 * TextDecoder call; longer ones are checked and decoded natively.
 */
function unescapedText(line: JsonBytes, from: number, to: number): string | undefined {
  const b = line.bytes;
  if (to - from > SHORT_TEXT) {
    const escaped = line.latin1 === undefined
      ? hasEscapeOrControl(b, from, to)
      : ESCAPE_OR_CONTROL.test(line.latin1.slice(from, to));
    if (escaped) return undefined;
    return decoder.decode(b.subarray(from, to));
  }
  let ascii = true;
  for (let i = from; i < to; i++) {
    const c = b[i];
    if (c < 0x20 || c === BACKSLASH) return undefined;
    if (c > 0x7f) ascii = false;
  }
  return ascii && line.latin1 !== undefined
    ? ownCopy(line.latin1.slice(from, to))
    : decoder.decode(b.subarray(from, to));
}

/**
 * `slice` as a string that does not point into the string it was sliced
 * from. V8 copies slices shorter than {@linkcode SLICE_COPIED}; a longer one
 * is made flat by slicing a concatenation, which V8 flattens into a fresh
 * string first (the result then points into that copy only).
 */
function ownCopy(slice: string): string {
  return slice.length < SLICE_COPIED ? slice : (slice + " ").slice(0, -1);
}

function hasEscapeOrControl(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    if (b[i] < 0x20 || b[i] === BACKSLASH) return true;
  }
  return false;
}
