/**
 * Byte-level peeks into one JSON line without parsing it: the top-level
 * `type`, one top-level key's value, the first content block of a message.
 * They let the readers decide cheaply whether a line is worth a JSON.parse;
 * string contents are skipped with a native `indexOf`, so a multi-megabyte
 * tool result costs a few calls, not a byte loop.
 *
 * Every function returns -1 or undefined on input it cannot follow; callers
 * then fall back to JSON.parse, which has the last word on validity.
 *
 * @module
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Index just past the string whose opening quote is at `start`; -1 if it never closes. */
function skipString(b: Uint8Array, start: number): number {
  let from = start + 1;
  while (true) {
    const quote = b.indexOf(QUOTE, from);
    if (quote === -1) return -1;
    let slashes = 0;
    for (let k = quote - 1; k > start && b[k] === BACKSLASH; k--) slashes++;
    if ((slashes & 1) === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Index of the first non-whitespace byte at or after `i`. */
function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i++;
  }
  return i;
}

/** Index just past the JSON value starting at or after `i`; -1 if malformed. */
function skipValue(b: Uint8Array, i: number): number {
  i = skipSpace(b, i);
  const first = b[i];
  if (first === QUOTE) return skipString(b, i);
  if (first === LBRACE || first === LBRACKET) {
    let depth = 0;
    while (i < b.length) {
      const c = b[i];
      if (c === QUOTE) {
        i = skipString(b, i);
        if (i === -1) return -1;
        continue;
      }
      if (c === LBRACE || c === LBRACKET) depth++;
      else if (c === RBRACE || c === RBRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  const start = i;
  while (i < b.length) {
    const c = b[i];
    if (c === COMMA || c === RBRACE || c === RBRACKET || c === 0x20 || c === 0x0a) break;
    i++;
  }
  return i === start ? -1 : i;
}

/**
 * Where the value of `key` starts in the object that opens at or after
 * `objectStart`, looking at that object's own keys only; -1 if absent.
 */
function findKey(b: Uint8Array, objectStart: number, key: string | Uint8Array): number {
  const name = typeof key === "string" ? encoded(key) : key;
  let i = skipSpace(b, objectStart);
  if (b[i] !== LBRACE) return -1;
  i++;
  while (true) {
    i = skipSpace(b, i);
    if (b[i] !== QUOTE) return -1;
    const keyEnd = skipString(b, i);
    if (keyEnd === -1) return -1;
    const matches = keyEnd - i - 2 === name.length && sameBytes(b, i + 1, name);
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) return -1;
    i = skipSpace(b, i + 1);
    if (matches) return i;
    i = skipValue(b, i);
    if (i === -1) return -1;
    i = skipSpace(b, i);
    if (b[i] === COMMA) i++;
    else return -1;
  }
}

/** The string at `valueStart`, if it is a plain string (no escapes); else undefined. */
function plainStringAt(b: Uint8Array, valueStart: number): string | undefined {
  if (valueStart < 0 || b[valueStart] !== QUOTE) return undefined;
  const end = skipString(b, valueStart);
  if (end === -1) return undefined;
  const inner = b.subarray(valueStart + 1, end - 1);
  if (inner.includes(BACKSLASH)) return undefined;
  return decoder.decode(inner);
}

/** The plain string value of a top-level key of the line, if there is one. */
export function peekString(b: Uint8Array, key: string | Uint8Array): string | undefined {
  return plainStringAt(b, findKey(b, 0, key));
}

/**
 * The raw bytes of a top-level key's value (a view into `b`), so a reader can
 * parse one part of a line and skip the rest; undefined if absent or malformed.
 */
export function peekValue(b: Uint8Array, key: string | Uint8Array): Uint8Array | undefined {
  const start = findKey(b, 0, key);
  if (start === -1) return undefined;
  const end = skipValue(b, start);
  return end === -1 ? undefined : b.subarray(start, end);
}

/**
 * The raw values of several top-level keys, found in one walk over the line
 * (each value a view into `b`); a key that is absent is left out. One walk
 * instead of one per key matters on lines that carry megabytes of output.
 * The walk ends at `stopAt` when given (a key whose value is known to be big
 * and known to follow the wanted ones).
 */
export function peekValues<K extends string>(
  b: Uint8Array,
  keys: readonly K[],
  stopAt?: string,
): Partial<Record<K, Uint8Array>> {
  const found: Partial<Record<K, Uint8Array>> = {};
  const names = keys.map(encoded);
  const stop = stopAt === undefined ? undefined : encoded(stopAt);
  let missing = keys.length;
  let i = skipSpace(b, 0);
  if (b[i] !== LBRACE) return found;
  i++;
  while (missing > 0) {
    i = skipSpace(b, i);
    if (b[i] !== QUOTE) return found;
    const keyEnd = skipString(b, i);
    if (keyEnd === -1) return found;
    const length = keyEnd - i - 2;
    if (stop !== undefined && stop.length === length && sameBytes(b, i + 1, stop)) return found;
    const which = names.findIndex((name) => name.length === length && sameBytes(b, i + 1, name));
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) return found;
    const start = skipSpace(b, i + 1);
    i = skipValue(b, start);
    if (i === -1) return found;
    if (which !== -1 && found[keys[which]] === undefined) {
      found[keys[which]] = b.subarray(start, i);
      missing--;
    }
    i = skipSpace(b, i);
    if (b[i] === COMMA) i++;
    else return found;
  }
  return found;
}

const TYPE_KEY = encoder.encode("type");

/** The line's top-level `type`, read without parsing the line. */
export function peekType(b: Uint8Array): string | undefined {
  return plainStringAt(b, findKey(b, 0, TYPE_KEY));
}

/** Whether the top-level boolean `key` is literally `true`. */
export function peekTrue(b: Uint8Array, key: string | Uint8Array): boolean {
  const at = findKey(b, 0, key);
  return at !== -1 && b[at] === 0x74; // "t" of true
}

const MESSAGE_KEY = encoder.encode("message");
const CONTENT_KEY = encoder.encode("content");
const TOOL_USE_ID_KEY = encoder.encode("tool_use_id");

/** Start of `message.content` in a user or assistant line; -1 if absent. */
function contentStart(b: Uint8Array): number {
  const message = findKey(b, 0, MESSAGE_KEY);
  return message === -1 ? -1 : findKey(b, message, CONTENT_KEY);
}

/**
 * For a user line: the `tool_use_id`s when its content is a list of
 * tool_result blocks, `undefined` when it is anything else (a prompt, text
 * blocks, or a shape this peek cannot follow).
 */
export function peekToolResultIds(b: Uint8Array): string[] | undefined {
  return walkToolResults(b, false)?.ids;
}

/**
 * {@linkcode peekToolResultIds}, plus whether any of the results is marked
 * `"is_error": true` (a failed or refused tool call).
 */
export function peekToolResults(b: Uint8Array): { ids: string[]; isError: boolean } | undefined {
  return walkToolResults(b, true);
}

const IS_ERROR_KEY = encoder.encode("is_error");

function walkToolResults(
  b: Uint8Array,
  checkErrors: boolean,
): { ids: string[]; isError: boolean } | undefined {
  let i = contentStart(b);
  if (i === -1 || b[i] !== LBRACKET) return undefined;
  const ids: string[] = [];
  let isError = false;
  i++;
  while (true) {
    i = skipSpace(b, i);
    if (b[i] === RBRACKET) return ids.length > 0 ? { ids, isError } : undefined;
    const block = readResultBlock(b, i);
    if (block === undefined || block.type !== "tool_result" || block.id === undefined) {
      return undefined;
    }
    ids.push(block.id);
    if (checkErrors && block.isError) isError = true;
    i = skipSpace(b, block.end);
    if (b[i] === COMMA) i++;
  }
}

/**
 * The `type`, `tool_use_id` and `is_error` of the block object at `start`, and
 * where it ends, in one pass over its keys: the result's (often huge)
 * content is skipped once.
 */
function readResultBlock(
  b: Uint8Array,
  start: number,
): { type?: string; id?: string; isError: boolean; end: number } | undefined {
  let i = skipSpace(b, start);
  if (b[i] !== LBRACE) return undefined;
  const block: { type?: string; id?: string; isError: boolean; end: number } = {
    isError: false,
    end: -1,
  };
  i = skipSpace(b, i + 1);
  if (b[i] === RBRACE) return { ...block, end: i + 1 };
  while (true) {
    if (b[i] !== QUOTE) return undefined;
    const keyEnd = skipString(b, i);
    if (keyEnd === -1) return undefined;
    const length = keyEnd - i - 2;
    const isKey = (name: Uint8Array) => length === name.length && sameBytes(b, i + 1, name);
    const which = isKey(TYPE_KEY)
      ? "type"
      : isKey(TOOL_USE_ID_KEY)
      ? "id"
      : isKey(IS_ERROR_KEY)
      ? "error"
      : undefined;
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) return undefined;
    i = skipSpace(b, i + 1);
    if (which === "type") block.type = plainStringAt(b, i);
    else if (which === "id") block.id = plainStringAt(b, i);
    else if (which === "error") block.isError = b[i] === 0x74; // "t" of true
    i = skipValue(b, i);
    if (i === -1) return undefined;
    i = skipSpace(b, i);
    if (b[i] === RBRACE) return { ...block, end: i + 1 };
    if (b[i] !== COMMA) return undefined;
    i = skipSpace(b, i + 1);
  }
}

const keys = new Map<string, Uint8Array>();

/** The UTF-8 bytes of a key name, encoded once per name. */
function encoded(key: string): Uint8Array {
  let bytes = keys.get(key);
  if (bytes === undefined) keys.set(key, bytes = encoder.encode(key));
  return bytes;
}

function sameBytes(b: Uint8Array, at: number, name: Uint8Array): boolean {
  for (let k = 0; k < name.length; k++) {
    if (b[at + k] !== name[k]) return false;
  }
  return true;
}
