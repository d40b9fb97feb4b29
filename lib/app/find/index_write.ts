/**
 * The writing half of an index update (index_update.ts plans it): read each
 * changed file from where its plan starts and put its text in the index, in
 * batched transactions. Loaded only when a file changed.
 *
 * @module
 */

import type { FindIndexDb, IndexedFile } from "../../store/find_index_db.ts";
import { headSessionId } from "../../transcript/head_session.ts";
import { hashFilePrefix } from "../../transcript/prefix_hash.ts";
import type { SessionFacts } from "../../transcript/search_text.ts";
import { readSearchText } from "../../transcript/search_text_file.ts";
import type { IndexStats, Plan, ProgressListener } from "./index_update.ts";

/** Transcript bytes indexed per commit. */
const BATCH_BYTES = 64 * 1024 * 1024;

/** What an update found to do. */
export interface Work {
  plans: Plan[];
  gone: IndexedFile[];
  /** Bytes the plans read. */
  total: number;
  /** Filled in as the files are read. */
  stats: IndexStats;
}

/** Drop the gone files and read the planned ones into `index`. */
export function writePlans(
  index: FindIndexDb,
  { plans, gone, total, stats }: Work,
  options: { onProgress?: ProgressListener } = {},
): void {
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
}

function isReadError(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied;
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
