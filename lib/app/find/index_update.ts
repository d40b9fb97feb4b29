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
import { headSessionId } from "../../transcript/head_session.ts";
import { hashFilePrefix, type PrefixHashState } from "../../transcript/prefix_hash.ts";
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

/** Transcript bytes indexed per commit. */
const BATCH_BYTES = 64 * 1024 * 1024;

/** Where to read a changed file from; `hash` carries the prefix's hash on for an append. */
interface Plan {
  file: TranscriptOnDisk;
  prior: IndexedFile | undefined;
  start: number;
  hash: PrefixHashState | undefined;
}

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
  let done = 0;
  let batch = 0;
  index.db.exec("BEGIN IMMEDIATE");
  try {
    for (const file of gone) index.dropFile(file.id);
    for (const plan of plans) {
      try {
        stats.bytes += indexFile(index, plan);
        stats.files++;
      } catch (error) {
        if (!isReadError(error)) throw error;
        stats.unreadable.push(plan.file.path);
      }
      done += plan.file.size - plan.start;
      batch += plan.file.size - plan.start;
      options.onProgress?.(done, total);
      // FTS5 writes a segment per commit (and per savepoint: none are used) and merging many
      // small ones slows a big first build.
      if (batch >= BATCH_BYTES) {
        index.db.exec("COMMIT; BEGIN IMMEDIATE");
        batch = 0;
      }
    }
    index.db.exec("COMMIT");
  } catch (error) {
    // A failed write (a full disk) may have ended the transaction already.
    if (index.db.isTransaction) index.db.exec("ROLLBACK");
    throw error;
  }
  stats.ms = Math.round(performance.now() - started);
  return stats;
}

function isReadError(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied;
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

/**
 * Read a planned file into the index; returns the bytes read. A file that
 * cannot be read (gone, no permission) leaves no row behind, so the next
 * update reads it from the start; its error is rethrown.
 */
function indexFile(index: FindIndexDb, { file, prior, start, hash }: Plan): number {
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
    prefixHash: prior?.prefixHash ?? "",
    nextDoc: start === 0 ? 0 : prior?.nextDoc ?? 0,
    facts,
  };
  const id = index.saveFile({ ...record, id: prior?.id });
  let nextDoc = record.nextDoc;
  try {
    const read = readSearchText(file.path, (docs, place) => {
      for (const [part, doc] of docs.entries()) {
        index.addDoc(id, nextDoc++, doc, { ...place, part });
      }
    }, { start, facts, withoutToolOutput: true });
    const prefix = hashFilePrefix(file.path, read.end, hash);
    // Written while it was read: the next update reads it again from the start.
    const prefixHash = prefix.length === read.end ? prefix.digest : "";
    index.saveFile({ ...record, id, offset: read.end, prefixHash, nextDoc });
    return read.bytes;
  } catch (error) {
    // No savepoint to roll back to (each one makes FTS5 write a segment): undo by hand.
    if (isReadError(error)) index.dropFile(id);
    throw error;
  }
}
