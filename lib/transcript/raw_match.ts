/**
 * Cheap tests on raw transcript bytes, before anything is parsed: whether a
 * file, or a line, can hold an ASCII word at all. Bytes are read as Latin-1,
 * one character per byte, so a native case-insensitive regular expression
 * runs over them without a UTF-8 decode; an ASCII word's bytes are the same
 * in UTF-8 and in JSON (which never escapes letters or digits).
 *
 * @module
 */

const latin1 = new TextDecoder("latin1");
const CHUNK = 4 * 1024 * 1024;

/** Whether the file at `path` holds a match of `pattern` (which must not span more than `overlap` bytes). */
export function fileMayMatch(path: string, pattern: RegExp, overlap: number): boolean {
  const file = Deno.openSync(path, { read: true });
  const buffer = new Uint8Array(CHUNK);
  let carry = "";
  try {
    while (true) {
      const count = file.readSync(buffer);
      if (count === null || count === 0) return false;
      const text = carry + latin1.decode(buffer.subarray(0, count));
      if (pattern.test(text)) return true;
      carry = text.slice(-overlap);
    }
  } finally {
    file.close();
  }
}

/** Whether one raw line holds a match of `pattern`. */
export function lineMayMatch(bytes: Uint8Array, pattern: RegExp): boolean {
  return pattern.test(latin1.decode(bytes));
}
