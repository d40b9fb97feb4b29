/**
 * The first step of a scan: which transcripts hold the search's word at all
 * (raw_match.ts), before any is parsed. Over a large history a worker
 * (scan_prefilter_worker.ts) searches beside this thread, so both cores
 * search, each file read once. The two take files, largest first, from one
 * shared counter rather than fixed halves: the worker starts tens of
 * milliseconds late (a new isolate, and node:buffer for the latin1 search)
 * and a half measured by size ended 40-55 ms after this thread's. A small
 * history is searched here alone (the worker would cost more than it saves).
 *
 * @module
 */

import { isGoneOrClosed } from "../../core/fs_checks.ts";
import type { TranscriptOnDisk } from "../../transcript/all_transcripts.ts";
import { type ByteSearch, fileMayMatch, type ToLatin1 } from "../../transcript/raw_match.ts";

/** Histories of at least this many bytes are searched on two threads. */
const WORKER_BYTES = 64 * 1024 * 1024;

/** Options for {@linkcode filesHolding}. */
export interface PrefilterOptions {
  /** Search on two threads from this many bytes on ({@linkcode WORKER_BYTES} by default). */
  workerBytes?: number;
}

/** The files of `files` that hold `search`'s word, in their order; unreadable ones are left out. */
export async function filesHolding(
  files: readonly TranscriptOnDisk[],
  search: ByteSearch,
  options: PrefilterOptions = {},
): Promise<TranscriptOnDisk[]> {
  const toLatin1 = await latin1For(search);
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total < (options.workerBytes ?? WORKER_BYTES)) {
    return files.filter((file) => fileHolds(file.path, search, toLatin1));
  }
  const largestFirst = [...files].sort((a, b) => b.size - a.size).map((file) => file.path);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL("./scan_prefilter_worker.ts", import.meta.url), {
    type: "module",
  });
  try {
    const answer = new Promise<string[]>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent) =>
        typeof event.data?.failed === "string"
          ? reject(new Error(event.data.failed))
          : resolve(event.data.paths);
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        reject(new Error(event.message));
      };
    });
    worker.postMessage({
      word: new TextDecoder().decode(search.word),
      paths: largestFirst,
      next: next.buffer,
    });
    const held = new Set(claimAndSearch(largestFirst, next, search, toLatin1));
    for (const path of await answer) held.add(path);
    return files.filter((file) => held.has(file.path));
  } finally {
    worker.terminate();
  }
}

/**
 * Take the next unclaimed path from the shared counter `next` until none is
 * left, searching each; returns those that hold the word. Each thread of a
 * scan runs this over the same `paths`, so every path is searched once.
 */
export function claimAndSearch(
  paths: readonly string[],
  next: Int32Array,
  search: ByteSearch,
  toLatin1: ToLatin1 | undefined,
): string[] {
  const held: string[] = [];
  for (let i = Atomics.add(next, 0, 1); i < paths.length; i = Atomics.add(next, 0, 1)) {
    if (fileHolds(paths[i], search, toLatin1)) held.push(paths[i]);
  }
  return held;
}

/**
 * The latin1 copier when `search` has a rare letter: the word is then looked
 * for natively in a latin1 copy (raw_match.ts), worth loading node:buffer for
 * over any history but a tiny one.
 */
export async function latin1For(search: ByteSearch): Promise<ToLatin1 | undefined> {
  if (search.rareAt === undefined) return undefined;
  return (await import("../../transcript/latin1.ts")).toLatin1;
}

/** Whether the file at `path` holds the word; a file gone or closed to us does not. */
function fileHolds(path: string, search: ByteSearch, toLatin1: ToLatin1 | undefined): boolean {
  try {
    return fileMayMatch(path, search, toLatin1);
  } catch (error) {
    if (isGoneOrClosed(error)) return false;
    throw error;
  }
}
