/**
 * A 64-bit hash of a file's first N bytes, so the search index can tell a
 * pure append (the bytes it indexed are unchanged) from a rewrite of any of
 * them, which a look at a few bytes near the old end misses. Not a
 * cryptographic hash: it tells the index's own earlier read from what is on
 * disk now. Words are hashed in 4-byte steps from offset 0, so a hash can be
 * carried on from the state at a word boundary: checking a prefix, then
 * extending it over the appended bytes, reads the file once more only for
 * the new part.
 *
 * @module
 */

/** A hash in progress: its two lanes after `at` bytes (a multiple of 4). */
export interface PrefixHashState {
  at: number;
  h1: number;
  h2: number;
}

/** The hash of a file's first `length` bytes, and the state to carry it further. */
export interface PrefixHash {
  length: number;
  digest: string;
  state: PrefixHashState;
}

const CHUNK = 1024 * 1024;
const START: PrefixHashState = { at: 0, h1: 0x243f6a88, h2: 0x85a308d3 };
let shared = new Uint8Array(0);

/** The state before any byte. */
export function emptyPrefixHash(): PrefixHashState {
  return { ...START };
}

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
  let { h1, h2 } = from;
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
      const whole = got >>> 2;
      for (let i = 0; i < whole; i++) {
        const w = words[i];
        h1 = Math.imul(h1 ^ w, 0x85ebca6b);
        h1 = (h1 << 13) | (h1 >>> 19);
        h2 = Math.imul(h2 + w, 0xc2b2ae35) ^ (h1 >>> 7);
        h2 = (h2 << 17) | (h2 >>> 15);
      }
      at += whole * 4;
      if (got < want || whole * 4 < got) {
        tail = buffer.slice(whole * 4, got);
        break;
      }
    }
  } finally {
    file.close();
  }
  const state = { at, h1, h2 };
  return { length: at + tail.length, digest: digestOf(state, tail), state };
}

function digestOf(state: PrefixHashState, tail: Uint8Array): string {
  let { h1, h2 } = state;
  for (const byte of tail) {
    h1 = Math.imul(h1 ^ byte, 0x27d4eb2f);
    h2 = Math.imul(h2 + byte, 0x165667b1);
  }
  const length = state.at + tail.length;
  h1 = Math.imul(h1 ^ (length >>> 0), 0x9e3779b1) ^ (h2 >>> 16);
  h2 = Math.imul(h2 ^ Math.floor(length / 4294967296), 0x85ebca77) ^ (h1 >>> 13);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x7feb352d);
  h2 = Math.imul(h2 ^ (h2 >>> 15), 0x846ca68b);
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}
