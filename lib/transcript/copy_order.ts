/**
 * How two copies of one transcript relate. Claude only appends to a
 * transcript, so when one copy's bytes are a prefix of the other's, the
 * longer one holds everything the shorter does and more: it is the newest
 * content. When neither is a prefix of the other, both hold lines the other
 * lacks (diverged), and only the user can say which to continue.
 *
 * @module
 */

import { readFull } from "./lines.ts";

/** `same`, `first` or `second` (that one holds the other and more), or `diverged`. */
export type CopyOrder = "same" | "first" | "second" | "diverged";

const CHUNK = 1024 * 1024;

/** Compare the files at `first` and `second` byte by byte, reading both in chunks. */
export function compareCopies(first: string, second: string): CopyOrder {
  const a = Deno.openSync(first);
  const b = Deno.openSync(second);
  try {
    const bufferA = new Uint8Array(CHUNK);
    const bufferB = new Uint8Array(CHUNK);
    while (true) {
      const readA = readFull(a, bufferA);
      const readB = readFull(b, bufferB);
      const common = Math.min(readA, readB);
      for (let i = 0; i < common; i++) {
        if (bufferA[i] !== bufferB[i]) return "diverged";
      }
      if (readA === readB) {
        if (readA < CHUNK) return "same";
        continue;
      }
      return readA > readB ? "first" : "second";
    }
  } finally {
    a.close();
    b.close();
  }
}

/**
 * Of several copies, the one holding every other (the newest content), or
 * null when some two have diverged.
 */
export function newestCopy(paths: string[]): string | null {
  let newest = paths[0] ?? null;
  for (const path of paths.slice(1)) {
    if (newest === null) return null;
    const order = compareCopies(newest, path);
    if (order === "diverged") return null;
    if (order === "second") newest = path;
  }
  // Every copy seen is a prefix of the newest so far, and so of any copy that extends it.
  return newest;
}
