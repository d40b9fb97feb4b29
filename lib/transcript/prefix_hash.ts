/**
 * A 64-bit hash of a file's first N bytes, so the search index can tell a
 * pure append (the bytes it indexed are unchanged) from a rewrite of any of
 * them, which a look at a few bytes near the old end misses. Not a
 * cryptographic hash: it tells the index's own earlier read from what is on
 * disk now. Every query after an append hashes the file's whole indexed
 * prefix, so speed matters: four independent lanes each take one 4-byte word
 * of every 16-byte block, which lets the CPU work on the four at once (about
 * 4x one chained lane, measured). Each lane's step is a bijection of its
 * state, so one changed word always changes the digest. Blocks are hashed
 * from offset 0, so a hash can be carried on from the state at a block
 * boundary: checking a prefix, then extending it over the appended bytes,
 * reads the file once more only for the new part. (An index whose digests
 * came from an earlier version of this hash re-reads a file once, when it
 * next grows: its digest no longer matches.) The tree's lineage cache keeps
 * cheaper marks of a read's end ({@linkcode endMarks}): two short stretches.
 *
 * @module
 */

import type { EndMarks } from "../core/file_change.ts";

/**
 * A hash in progress: its four lanes after `at` bytes (a multiple of 16 when
 * carried on; {@linkcode endMarks} starts one fresh at a stretch's first byte).
 */
export interface PrefixHashState {
  at: number;
  h1: number;
  h2: number;
  h3: number;
  h4: number;
}

/** The hash of a file's first `length` bytes, and the state to carry it further. */
export interface PrefixHash {
  length: number;
  digest: string;
  state: PrefixHashState;
}

const CHUNK = 1024 * 1024;
const BLOCK = 16;
const START: PrefixHashState = {
  at: 0,
  h1: 0x243f6a88,
  h2: 0x85a308d3,
  h3: 0x13198a2e,
  h4: 0x03707344,
};
let shared = new Uint8Array(0);

/**
 * Hash `path`'s bytes up to `length`, carrying on from `from` (the start by
 * default). A file shorter than `length` gets the digest of what it holds,
 * which never equals a longer prefix's.
 */
export function hashFilePrefix(
  path: string,
  length: number,
  from: PrefixHashState = START,
): PrefixHash {
  if (shared.length < CHUNK) shared = new Uint8Array(CHUNK);
  const buffer = shared;
  const words = new Uint32Array(buffer.buffer, 0, CHUNK / 4);
  let { h1, h2, h3, h4 } = from;
  let at = from.at;
  let tail = new Uint8Array(0);
  const file = Deno.openSync(path, { read: true });
  try {
    if (at > 0) file.seekSync(at, Deno.SeekMode.Start);
    while (at < length) {
      const want = Math.min(CHUNK, length - at);
      let got = 0;
      while (got < want) {
        const count = file.readSync(buffer.subarray(got, want));
        if (count === null || count === 0) break;
        got += count;
      }
      const blocks = Math.floor(got / BLOCK);
      const end = blocks * (BLOCK / 4);
      for (let i = 0; i < end; i += 4) {
        h1 = Math.imul(h1 ^ words[i], 0x85ebca6b);
        h1 = (h1 << 13) | (h1 >>> 19);
        h2 = Math.imul(h2 ^ words[i + 1], 0xc2b2ae35);
        h2 = (h2 << 17) | (h2 >>> 15);
        h3 = Math.imul(h3 ^ words[i + 2], 0x27d4eb2f);
        h3 = (h3 << 11) | (h3 >>> 21);
        h4 = Math.imul(h4 ^ words[i + 3], 0x165667b1);
        h4 = (h4 << 15) | (h4 >>> 17);
      }
      at += blocks * BLOCK;
      if (got < want || blocks * BLOCK < got) {
        tail = buffer.slice(blocks * BLOCK, got);
        break;
      }
    }
  } finally {
    file.close();
  }
  const state = { at, h1, h2, h3, h4 };
  return { length: at + tail.length, digest: digestOf(state, tail), state };
}

/** How many bytes each of {@linkcode endMarks}' hashes covers. */
export const MARK_BYTES = 4096;

/**
 * Hashes of a file's first bytes before `end` and of the bytes just before
 * `end` ({@linkcode MARK_BYTES} each, fewer in a short file): what tells that
 * a file read up to `end` and grown since was appended to, not rewritten
 * (lib/core/file_change.ts), at the cost of two short reads whatever its size.
 */
export function endMarks(path: string, end: number): EndMarks {
  return {
    head: hashFilePrefix(path, Math.min(end, MARK_BYTES)).digest,
    // A fresh hash started at the stretch's first byte; its digest counts the length up to `end`.
    tail: hashFilePrefix(path, end, { ...START, at: Math.max(0, end - MARK_BYTES) }).digest,
  };
}

/**
 * The digest: the tail bytes (under 16) folded into the first lane, then two
 * 32-bit halves, each one-to-one in either of its two lanes when the other
 * is fixed, so a change in any one lane shows.
 */
function digestOf(state: PrefixHashState, tail: Uint8Array): string {
  let { h1 } = state;
  for (const byte of tail) {
    h1 = Math.imul(h1 ^ byte, 0x9e3779b1);
    h1 = (h1 << 13) | (h1 >>> 19);
  }
  const length = state.at + tail.length;
  const low = finalMix(h1 ^ rotateLeft16(state.h2) ^ (length >>> 0));
  const high = finalMix(
    state.h3 ^ rotateLeft16(state.h4) ^ Math.floor(length / 4294967296) ^ low,
  );
  return (low >>> 0).toString(16).padStart(8, "0") + (high >>> 0).toString(16).padStart(8, "0");
}

function rotateLeft16(value: number): number {
  return (value << 16) | (value >>> 16);
}

/** MurmurHash3's 32-bit finalizer: one-to-one, every input bit reaches every output bit. */
function finalMix(value: number): number {
  let h = value;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
