/**
 * Bring the search index up to date with the transcripts on disk, at the
 * cost of the bytes that changed: one read of what tells a change (path,
 * identity, size, time) from the files table, one stat per transcript, then
 * the whole rows of the changed files only. A file that grew is read from
 * where the last update stopped, when the bytes indexed then are still its
 * first bytes (their hash is kept, see prefix_hash.ts). Any other change (shrunk, replaced by another
 * file, rewritten in place even at the same size) drops the file's rows and
 * reads it again from the start; a file that is gone drops out. A file's
 * text and its new offset are committed together, so an interrupted update
 * never indexes a line twice.
 *
 * @module
 */

import { sameStamp } from "../../core/file_change.ts";
import type { FindIndexDb } from "../../store/find_index_db.ts";
import type { FileState, IndexedFile } from "../../store/find_index_schema.ts";
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
  const changed = onDisk.filter((file) => !unchanged(file, known.get(file.path)));
  const present = new Set(onDisk.map((file) => file.path));
  const gone = [...known.values()].filter((file) => !present.has(file.path));
  if (changed.length === 0 && gone.length === 0) {
    stats.ms = Math.round(performance.now() - started);
    return stats;
  }
  const priors = index.filesWithIds(changed.flatMap((file) => known.get(file.path)?.id ?? []));
  const plans = changed.map((file) => planOf(file, priors.get(file.path)));
  const total = plans.reduce((sum, plan) => sum + plan.file.size - plan.start, 0);
  // The reader and writer load only when something changed: a query's update usually finds nothing.
  const { writePlans } = await import("./index_write.ts");
  await writePlans(index, { plans, gone, total, stats }, options);
  stats.ms = Math.round(performance.now() - started);
  return stats;
}

/** Whether `file` is as it was when indexed (same file, size and times). */
function unchanged(file: TranscriptOnDisk, known: FileState | undefined): boolean {
  return known !== undefined && sameStamp(known, file);
}

/** How to bring a changed `file` up to date. */
function planOf(file: TranscriptOnDisk, prior: IndexedFile | undefined): Plan {
  const fresh = { file, prior, start: 0, hash: undefined };
  if (prior === undefined) return fresh;
  if (prior.identity !== file.identity || file.size < prior.offset) return fresh;
  try {
    const now = hashFilePrefix(file.path, prior.offset);
    if (now.length !== prior.offset || now.digest !== prior.prefixHash) return fresh;
    return { file, prior, start: prior.offset, hash: now.state };
  } catch {
    return fresh; // Unreadable now: the full read reports it.
  }
}
