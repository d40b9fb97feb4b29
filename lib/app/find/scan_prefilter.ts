/**
 * The first step of a scan: which transcripts hold the search's word at all
 * (raw_match.ts), before any is parsed. Over a large history the files are
 * shared with a worker (scan_prefilter_worker.ts) so both cores search, each
 * reading its files once; a small one is searched here (a worker costs tens
 * of milliseconds to start).
 *
 * @module
 */

import type { TranscriptOnDisk } from "../../transcript/all_transcripts.ts";
import { type ByteSearch, fileMayMatch } from "../../transcript/raw_match.ts";

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
  // A word with a rare letter is looked for natively in a latin1 copy (raw_match.ts): worth
  // loading node:buffer for, over any history but a tiny one.
  const toLatin1 = search.rareAt === undefined
    ? undefined
    : (await import("../../transcript/latin1.ts")).toLatin1;
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const holds = (path: string) => {
    try {
      return fileMayMatch(path, search, toLatin1);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied) {
        return false;
      }
      throw error;
    }
  };
  if (total < (options.workerBytes ?? WORKER_BYTES)) {
    return files.filter((file) => holds(file.path));
  }
  // Largest first, each to the lighter side: the two halves end together.
  const mine: TranscriptOnDisk[] = [];
  const theirs: TranscriptOnDisk[] = [];
  let balance = 0;
  for (const file of [...files].sort((a, b) => b.size - a.size)) {
    if (balance <= 0) {
      theirs.push(file);
      balance += file.size;
    } else {
      mine.push(file);
      balance -= file.size;
    }
  }
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
      paths: theirs.map((file) => file.path),
    });
    const held = new Set(mine.filter((file) => holds(file.path)).map((file) => file.path));
    for (const path of await answer) held.add(path);
    return files.filter((file) => held.has(file.path));
  } finally {
    worker.terminate();
  }
}
