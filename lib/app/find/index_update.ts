/**
 * Bring the search index up to date with the transcripts on disk. Transcripts
 * are append-only, so a file that grew is read from where the last update
 * stopped; one that shrank, was replaced (another identity) or was rewritten
 * in place (the bytes before the old end changed) is read again from the
 * start; one that is gone drops out. A file's text and its new offset are
 * committed together, so an interrupted update never indexes a line twice.
 *
 * @module
 */

import type { FindIndexDb, IndexedFile } from "../../store/find_index_db.ts";
import {
  headSessionId,
  listAllTranscripts,
  type TranscriptOnDisk,
} from "../../transcript/all_transcripts.ts";
import { readSearchText, type SessionFacts } from "../../transcript/search_text.ts";

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

const ANCHOR_BYTES = 64;
/** Transcript bytes indexed per commit. */
const BATCH_BYTES = 64 * 1024 * 1024;

/** Update `index` from the transcripts under `projectsDir`. */
export function updateIndex(
  index: FindIndexDb,
  projectsDir: string,
  options: { onProgress?: ProgressListener } = {},
): IndexStats {
  const started = performance.now();
  const known = index.files();
  const onDisk = listAllTranscripts(projectsDir);
  const stats: IndexStats = { files: 0, bytes: 0, ms: 0, unreadable: [] };
  const plans = onDisk.map((file) => ({ file, start: startOf(file, known.get(file.path)) }));
  const total = plans.reduce((sum, p) => sum + (p.start === null ? 0 : p.file.size - p.start), 0);
  const present = new Set(onDisk.map((file) => file.path));
  const gone = [...known.values()].filter((file) => !present.has(file.path));
  let done = 0;
  let batch = 0;
  const changed = plans.filter((plan) => plan.start !== null) as {
    file: TranscriptOnDisk;
    start: number;
  }[];
  const commitEvery = () => {
    // FTS5 writes a new segment per commit, and merging many small ones is what slows a big first
    // build; files are committed together, each in its own savepoint, so one unreadable file
    // costs only its own changes.
    index.db.exec("COMMIT");
    index.db.exec("BEGIN IMMEDIATE");
    batch = 0;
  };
  index.db.exec("BEGIN IMMEDIATE");
  try {
    for (const file of gone) index.dropFile(file.id);
    for (const { file, start } of changed) {
      const prior = known.get(file.path);
      try {
        const read = index.savepoint(() => indexFile(index, file, prior, start));
        stats.files++;
        stats.bytes += read;
      } catch (error) {
        if (
          !(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied)
        ) {
          throw error;
        }
        stats.unreadable.push(file.path);
      }
      done += file.size - start;
      batch += file.size - start;
      options.onProgress?.(done, total);
      if (batch >= BATCH_BYTES) commitEvery();
    }
    index.db.exec("COMMIT");
  } catch (error) {
    index.db.exec("ROLLBACK");
    throw error;
  }
  stats.ms = Math.round(performance.now() - started);
  return stats;
}

/** Where to start reading `file`: null when nothing changed, 0 for a full read. */
function startOf(file: TranscriptOnDisk, prior: IndexedFile | undefined): number | null {
  if (prior === undefined) return 0;
  if (prior.identity !== file.identity || file.size < prior.offset) return 0;
  if (file.size === prior.size && file.mtimeMs === prior.mtimeMs) return null;
  return anchorHolds(file.path, prior) ? prior.offset : 0;
}

/** Read `file` from `start` into the index; returns the bytes read. */
function indexFile(
  index: FindIndexDb,
  file: TranscriptOnDisk,
  prior: IndexedFile | undefined,
  start: number,
): number {
  const sessionId = file.sessionId ?? prior?.sessionId ?? headSessionId(file.path);
  if (sessionId === undefined) return 0; // An old agent-*.jsonl that names no session yet.
  const facts: SessionFacts = start === 0 ? {} : { ...prior?.facts };
  if (prior !== undefined && start === 0) index.clearDocs(prior.id);
  const record = {
    path: file.path,
    sessionId,
    projectDir: file.projectDir,
    subagent: file.subagent,
    identity: file.identity,
    size: file.size,
    mtimeMs: file.mtimeMs,
    offset: start,
    anchor: prior?.anchor ?? new Uint8Array(),
    facts,
  };
  const id = index.saveFile({ ...record, id: prior?.id });
  const read = readSearchText(file.path, (docs) => {
    for (const doc of docs) index.addDoc(id, doc);
  }, { start, facts });
  index.saveFile({ ...record, id, offset: read.end, anchor: anchorOf(file.path, read.end) });
  return read.bytes;
}

/** Whether the bytes before the indexed end are still the ones read then. */
function anchorHolds(path: string, prior: IndexedFile): boolean {
  let now: Uint8Array;
  try {
    now = anchorOf(path, prior.offset);
  } catch {
    return false; // Unreadable now: the full read reports it.
  }
  return now.length === prior.anchor.length && now.every((byte, i) => byte === prior.anchor[i]);
}

function anchorOf(path: string, offset: number): Uint8Array {
  const length = Math.min(ANCHOR_BYTES, offset);
  const bytes = new Uint8Array(length);
  if (length === 0) return bytes;
  const file = Deno.openSync(path, { read: true });
  try {
    file.seekSync(offset - length, Deno.SeekMode.Start);
    let got = 0;
    while (got < length) {
      const count = file.readSync(bytes.subarray(got));
      if (count === null || count === 0) break;
      got += count;
    }
    return bytes.subarray(0, got);
  } finally {
    file.close();
  }
}
