/**
 * Keys that appear twice in one JSON object. `JSON.parse` keeps the last one
 * silently; for a setting that decides what claude may do unasked, which one
 * the user meant is not for claudecm to guess.
 *
 * @module
 */

/** A key written a second time in the same object, with both line numbers (1-based). */
export interface DuplicateKey {
  key: string;
  line: number;
  firstLine: number;
}

/** The first key repeated within one object of `text` (valid JSON), or null. */
export function firstDuplicateKey(text: string): DuplicateKey | null {
  // One entry per open container: an object's keys (and the line each was first seen on);
  // null for an array, whose strings are values.
  const stack: Array<Map<string, number> | null> = [];
  let line = 1;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\n") line++;
    else if (char === "{") {
      stack.push(new Map());
      expectKey = true;
    } else if (char === "[") {
      stack.push(null);
      expectKey = false;
    } else if (char === "}" || char === "]") {
      stack.pop();
      expectKey = false;
    } else if (char === ",") expectKey = stack.at(-1) instanceof Map;
    else if (char === '"') {
      const end = stringEnd(text, i);
      const keys = stack.at(-1);
      if (expectKey && keys instanceof Map) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        const firstLine = keys.get(key);
        if (firstLine !== undefined) return { key, line, firstLine };
        keys.set(key, line);
      }
      expectKey = false;
      i = end;
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}
