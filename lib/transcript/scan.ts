/**
 * Peeks into one JSON line without parsing it: the top-level `type`, one
 * top-level key's value, the tool results of a user message. They let the
 * readers decide cheaply whether a line is worth a JSON.parse (json_bytes.ts
 * and json_read.ts have the walking and why it is fast).
 *
 * Every function returns undefined on input it cannot follow; callers then
 * fall back to JSON.parse, which has the last word on validity.
 *
 * @module
 */

import { asJsonBytes, keyBytes, type PeekInput, sameBytes, skipMemberValue } from "./json_bytes.ts";
import { findKey, keyIs, stringAt, walkArray, walkObject } from "./json_read.ts";

export type { JsonBytes, PeekInput } from "./json_bytes.ts";

const TYPE_KEY = keyBytes("type");
const MESSAGE_KEY = keyBytes("message");
const CONTENT_KEY = keyBytes("content");
const TOOL_USE_ID_KEY = keyBytes("tool_use_id");
const IS_ERROR_KEY = keyBytes("is_error");

/** The string value of a top-level key of the line (escapes decoded), if there is one. */
export function peekString(input: PeekInput, key: string | Uint8Array): string | undefined {
  const line = asJsonBytes(input);
  return stringAt(line, findKey(line, 0, typeof key === "string" ? keyBytes(key) : key));
}

/**
 * The raw values of several top-level keys, found in one walk over the line
 * (each value a view into it, the first of a repeated key); a key that is
 * absent is left out. One walk instead of one per key matters on lines that
 * carry megabytes of output. The walk ends at `stopAt` when given (a key
 * whose value is known to be big and known to follow the wanted ones).
 */
export function peekValues<K extends string>(
  input: PeekInput,
  keys: readonly K[],
  stopAt?: string,
): Partial<Record<K, Uint8Array>> {
  const line = asJsonBytes(input);
  const found: Partial<Record<K, Uint8Array>> = {};
  const names = keys.map(keyBytes);
  const stop = stopAt === undefined ? undefined : keyBytes(stopAt);
  let missing = keys.length;
  walkObject(line, 0, (nameStart, nameEnd, valueStart) => {
    if (missing === 0 || (stop && sameBytes(line.bytes, nameStart, nameEnd, stop))) return -1;
    const valueEnd = skipMemberValue(line, valueStart);
    if (valueEnd === -1) return -1;
    const which = names.findIndex((name) => keyIs(line, nameStart, nameEnd, name));
    if (which !== -1 && found[keys[which]] === undefined) {
      found[keys[which]] = line.bytes.subarray(valueStart, valueEnd);
      missing--;
    }
    return valueEnd;
  });
  return found;
}

/** The line's top-level `type`, read without parsing the line. */
export function peekType(input: PeekInput): string | undefined {
  const line = asJsonBytes(input);
  return stringAt(line, findKey(line, 0, TYPE_KEY));
}

/** Whether the top-level boolean `key` is literally `true`. */
export function peekTrue(input: PeekInput, key: string | Uint8Array): boolean {
  const line = asJsonBytes(input);
  const at = findKey(line, 0, typeof key === "string" ? keyBytes(key) : key);
  return at !== -1 && line.bytes[at] === 0x74; // "t" of true
}

/**
 * For a user line: the `tool_use_id`s when its content is a list of
 * tool_result blocks, `undefined` when it is anything else (a prompt, text
 * blocks, or a shape this peek cannot follow).
 */
export function peekToolResultIds(input: PeekInput): string[] | undefined {
  return peekToolResults(input)?.ids;
}

/**
 * {@linkcode peekToolResultIds}, plus whether any of the results is marked
 * `"is_error": true` (a failed or refused tool call).
 */
export function peekToolResults(input: PeekInput): { ids: string[]; isError: boolean } | undefined {
  const line = asJsonBytes(input);
  const message = findKey(line, 0, MESSAGE_KEY);
  const content = message === -1 ? -1 : findKey(line, message, CONTENT_KEY);
  if (content === -1) return undefined;
  const ids: string[] = [];
  let isError = false;
  let other = false;
  const end = walkArray(line, content, (start) => {
    // The type, id and error flag in one pass over the block's keys: the
    // result's (often huge) content is skipped once.
    let type: string | undefined;
    let id: string | undefined;
    const blockEnd = walkObject(line, start, (nameStart, nameEnd, valueStart) => {
      const is = (name: Uint8Array) => keyIs(line, nameStart, nameEnd, name);
      if (is(TYPE_KEY)) type = stringAt(line, valueStart);
      else if (is(TOOL_USE_ID_KEY)) id = stringAt(line, valueStart);
      else if (is(IS_ERROR_KEY) && line.bytes[valueStart] === 0x74) isError = true;
      return skipMemberValue(line, valueStart);
    });
    if (type !== "tool_result" || id === undefined) other = true;
    else ids.push(id);
    return other ? -1 : blockEnd;
  });
  return end === -1 || other || ids.length === 0 ? undefined : { ids, isError };
}
