/**
 * Cheap tests on raw transcript bytes, before anything is parsed: whether a
 * file, or a line, can hold an ASCII word at all, ignoring ASCII case, with
 * no decoding: an ASCII word's bytes are the same in UTF-8 and in JSON
 * (which never escapes letters or digits). A Boyer-Moore-Horspool search
 * skips most bytes without looking at them; a word with a rare letter is
 * found faster in a whole file through V8's native string search for that
 * letter on a latin1 copy of each read (latin1.ts), each hit checked in place.
 *
 * @module
 */

const FOLD = new Uint8Array(256).map((_, byte) =>
  byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte
);
const CHUNK = 4 * 1024 * 1024;
let shared = new Uint8Array(0);

/** Finds a word in bytes, ignoring ASCII case. */
export interface ByteSearch {
  /** Whether `bytes` hold the word. */
  test(bytes: Uint8Array): boolean;
  /** The word's length in bytes. */
  length: number;
  /** The word, lower case. */
  word: Uint8Array;
  /** Where its rarest letter is in it, when it has one of {@linkcode RARE_LETTERS}. */
  rareAt: number | undefined;
}

/**
 * Letters rare enough in prose, code and JSON that a native search for one
 * of them, each hit checked in place, beats skipping through every byte.
 */
const RARE_LETTERS = "zqxjkv";

/** Turns bytes into a latin1 string (latin1.ts: the caller loads it, with `node:buffer`). */
export type ToLatin1 = (bytes: Uint8Array) => string;

/** A search for `word` (ASCII letters and digits). */
export function byteSearch(word: string): ByteSearch {
  const needle = new TextEncoder().encode(word.toLowerCase());
  const last = needle.length - 1;
  const shift = new Int32Array(256).fill(needle.length);
  const setShift = (byte: number, value: number) => {
    shift[byte] = value;
    if (byte >= 0x61 && byte <= 0x7a) shift[byte - 0x20] = value;
  };
  for (let i = 0; i < last; i++) setShift(needle[i], last - i);
  const afterMatch = shift[needle[last]];
  // A zero shift marks the word's last byte, so the inner loop only skips until it sees one.
  setShift(needle[last], 0);
  const rare = [...RARE_LETTERS].find((letter) => needle.includes(letter.charCodeAt(0)));
  return {
    length: needle.length,
    word: needle,
    rareAt: rare === undefined ? undefined : needle.indexOf(rare.charCodeAt(0)),
    test(bytes) {
      const size = bytes.length;
      let end = last;
      while (end < size) {
        let step: number;
        while ((step = shift[bytes[end]]) !== 0) {
          end += step;
          if (end >= size) return false;
        }
        let i = last - 1;
        let at = end - 1;
        while (i >= 0 && FOLD[bytes[at]] === needle[i]) {
          i--;
          at--;
        }
        if (i < 0) return true;
        end += afterMatch;
      }
      return false;
    },
  };
}

/**
 * Whether the file at `path` holds the word; through a latin1 copy of each
 * read when `toLatin1` is given and the word has a rare letter.
 */
export function fileMayMatch(path: string, search: ByteSearch, toLatin1?: ToLatin1): boolean {
  const test = toLatin1 === undefined || search.rareAt === undefined
    ? search.test
    : (bytes: Uint8Array) => rareLetterTest(search, bytes, toLatin1(bytes));
  const file = Deno.openSync(path, { read: true });
  const keep = search.length - 1;
  // One buffer for every file of a scan: a fresh 4 MiB per file is garbage the collector is slow
  // to return, and a 1 GB scan's memory grew with it.
  if (shared.length < CHUNK + keep) shared = new Uint8Array(CHUNK + keep);
  const buffer = shared;
  let carried = 0;
  try {
    while (true) {
      const count = file.readSync(buffer.subarray(carried));
      if (count === null || count === 0) return false;
      const filled = carried + count;
      if (test(buffer.subarray(0, filled))) return true;
      // A match may span two reads: keep the tail that could start one.
      carried = Math.min(keep, filled);
      buffer.copyWithin(0, filled - carried, filled);
    }
  } finally {
    file.close();
  }
}

/** Whether a line holds the word: through its latin1 copy when it has one and the word a rare letter. */
export function lineHolds(
  search: ByteSearch,
  line: { bytes: Uint8Array; latin1?: string },
): boolean {
  return search.rareAt === undefined || line.latin1 === undefined
    ? search.test(line.bytes)
    : rareLetterTest(search, line.bytes, line.latin1);
}

/** Each place the word's rare letter is, in either case, found natively; the word compared there. */
function rareLetterTest(search: ByteSearch, bytes: Uint8Array, latin1: string): boolean {
  const { word, rareAt } = search;
  const at = rareAt!;
  const last = bytes.length - word.length + at;
  const letter = String.fromCharCode(word[at]);
  for (const form of [letter, letter.toUpperCase()]) {
    for (let i = latin1.indexOf(form, at); i !== -1 && i <= last; i = latin1.indexOf(form, i + 1)) {
      let j = 0;
      while (j < word.length && FOLD[bytes[i - at + j]] === word[j]) j++;
      if (j === word.length) return true;
    }
  }
  return false;
}
