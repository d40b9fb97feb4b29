/**
 * Cheap tests on raw transcript bytes, before anything is parsed: whether a
 * file, or a line, can hold an ASCII word at all, ignoring ASCII case, with
 * no decoding: an ASCII word's bytes are the same in UTF-8 and in JSON
 * (which never escapes letters or digits). A word with a rare letter is
 * found through a native search for that letter; any other through a
 * Boyer-Moore-Horspool search, which skips most bytes without looking at them.
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
}

/**
 * Letters rare enough in prose, code and JSON that a native search for one
 * of them, each hit checked in place, beats skipping through every byte
 * (a word with a `z` in it: 3.5 times faster over a history).
 */
const RARE_LETTERS = "zqxjkv";

/** A search for `word` (ASCII letters and digits). */
export function byteSearch(word: string): ByteSearch {
  const needle = new TextEncoder().encode(word.toLowerCase());
  const rare = [...RARE_LETTERS].find((letter) => word.toLowerCase().includes(letter));
  return rare === undefined ? skippingSearch(needle) : rareByteSearch(needle, rare);
}

/** Finds each place the needle's rare letter is (natively), and compares the word there. */
function rareByteSearch(needle: Uint8Array, rare: string): ByteSearch {
  const at = needle.indexOf(rare.charCodeAt(0));
  const cases = [rare.charCodeAt(0), rare.toUpperCase().charCodeAt(0)];
  const matchesAt = (bytes: Uint8Array, start: number) => {
    for (let i = 0; i < needle.length; i++) {
      if (FOLD[bytes[start + i]] !== needle[i]) return false;
    }
    return true;
  };
  return {
    length: needle.length,
    test(bytes) {
      const last = bytes.length - needle.length + at;
      for (const byte of cases) {
        for (
          let i = bytes.indexOf(byte, at);
          i !== -1 && i <= last;
          i = bytes.indexOf(byte, i + 1)
        ) {
          if (matchesAt(bytes, i - at)) return true;
        }
      }
      return false;
    },
  };
}

/** Boyer-Moore-Horspool: skips most bytes without looking at them. */
function skippingSearch(needle: Uint8Array): ByteSearch {
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
  return {
    length: needle.length,
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

/** Whether the file at `path` holds the word. */
export function fileMayMatch(path: string, search: ByteSearch): boolean {
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
      if (search.test(buffer.subarray(0, filled))) return true;
      // A match may span two reads: keep the tail that could start one.
      carried = Math.min(keep, filled);
      buffer.copyWithin(0, filled - carried, filled);
    }
  } finally {
    file.close();
  }
}
