/**
 * Bring the search index up to date with the transcripts on disk, at the
 * cost of the bytes that changed: one read of the files table, one stat per
 * transcript. A file that grew is read from where the last update stopped,
 * when the bytes indexed then are still its first bytes (their hash is
 * kept, see prefix_hash.ts). Any other change (shrunk, replaced by another
 * file, rewritten in place even at the same size) drops the file's rows and
 * reads it again from the start; a file that is gone drops out. A file's
 * text and its new offset are committed together, so an interrupted update
 * never indexes a line twice.
 *
 * @module
 */

import type { FindIndexDb, IndexedFile } from "../../store/find_index_db.ts";
import { listAllTranscripts, type TranscriptOnDisk } from "../../transcript/all_transcripts.ts";
import { hashFilePrefix, type PrefixHashState } from "../../transcript/prefix_hash.ts";
import type { WriteOptions } from "./index_write.ts";

/** What an update did, as `find --json` reports it under `indexed`. */
export interface IndexStats {
  /** Files read (in whole or in part). */
  files: number;
  /** Transcript bytes read. */
  bytes: number;
  ms: number;
  /** Files that could not be read (permissions, I/O errors), left out. */
  unreadable: string[];
}

/** Told how far an update got, in transcript bytes. */
export type ProgressListener = (done: number, total: number) => void;

/** Where to read a changed file from; `hash` carries the prefix's hash on for an append. */
export interface Plan {
  file: TranscriptOnDisk;
  prior: IndexedFile | undefined;
  start: number;
  hash: PrefixHashState | undefined;
}

/** Update `index` from the transcripts under `projectsDir`. */
export async function updateIndex(
  index: FindIndexDb,
  projectsDir: string,
  options: WriteOptions = {},
): Promise<IndexStats> {
  const started = performance.now();
  const known = index.files();
  const onDisk = listAllTranscripts(projectsDir);
  const stats: IndexStats = { files: 0, bytes: 0, ms: 0, unreadable: [] };
  const plans = onDisk.flatMap((file) => {
    const plan = planOf(file, known.get(file.path));
    return plan === null ? [] : [plan];
  });
  const total = plans.reduce((sum, plan) => sum + plan.file.size - plan.start, 0);
  const present = new Set(onDisk.map((file) => file.path));
  const gone = [...known.values()].filter((file) => !present.has(file.path));
  if (plans.length === 0 && gone.length === 0) {
    stats.ms = Math.round(performance.now() - started);
    return stats;
  }
  // The reader and writer load only when something changed: a query's update usually finds nothing.
  const { writePlans } = await import("./index_write.ts");
  await writePlans(index, { plans, gone, total, stats }, options);
  stats.ms = Math.round(performance.now() - started);
  return stats;
}

/** How to bring `file` up to date; null when it is. */
function planOf(file: TranscriptOnDisk, prior: IndexedFile | undefined): Plan | null {
  const fresh = { file, prior, start: 0, hash: undefined };
  if (prior === undefined) return fresh;
  if (prior.identity !== file.identity || file.size < prior.offset) return fresh;
  if (file.size === prior.size && file.mtimeMs === prior.mtimeMs) return null;
  try {
    const now = hashFilePrefix(file.path, prior.offset);
    if (now.length !== prior.offset || now.digest !== prior.prefixHash) return fresh;
    return { file, prior, start: prior.offset, hash: now.state };
  } catch {
    return fresh; // Unreadable now: the full read reports it.
  }
}
