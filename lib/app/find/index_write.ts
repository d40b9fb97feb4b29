/**
 * The writing half of an index update (index_update.ts plans it): read each
 * changed file from where its plan starts (index_parse.ts) and put its text
 * in the index, in batched transactions. A large update reads in a worker
 * while this thread inserts (the build is CPU-bound: reading is about half
 * of it, the FTS5 inserts the other half). Loaded only when a file changed.
 *
 * @module
 */

import { type FindIndexDb, QUERY_CACHE_KB, QUERY_MMAP_BYTES } from "../../store/find_index_db.ts";
import type { FileState } from "../../store/find_index_schema.ts";
import { headSessionId } from "../../transcript/head_session.ts";
import { type ParsedPart, type ParseJob, parseJob } from "./index_parse.ts";
import type { IndexStats, Plan, ProgressListener } from "./index_update.ts";

/** SQLite's page cache while writing, in KiB. */
const WRITE_CACHE_KB = 8 * 1024;
/** Transcript bytes indexed per commit. */
const BATCH_BYTES = 64 * 1024 * 1024;
/** Updates of at least this many bytes read in a worker (starting one costs tens of ms). */
const WORKER_BYTES = 16 * 1024 * 1024;
/** How far the worker may read ahead of what is stored, in transcript bytes. */
const WORKER_WINDOW = 8 * 1024 * 1024;

/** What an update found to do. */
export interface Work {
  plans: Plan[];
  gone: FileState[];
  /** Bytes the plans read. */
  total: number;
  /** Filled in as the files are read. */
  stats: IndexStats;
}

/** Options for {@linkcode writePlans}. */
export interface WriteOptions {
  onProgress?: ProgressListener;
  /** Read in a worker from this many bytes on ({@linkcode WORKER_BYTES} by default). */
  workerBytes?: number;
}

/** Drop the gone files and read the planned ones into `index`. */
export async function writePlans(
  index: FindIndexDb,
  { plans, gone, total, stats }: Work,
  options: WriteOptions = {},
): Promise<void> {
  // An old agent-*.jsonl names its session only in its lines; one that names none yet is skipped.
  // Read again from the start, it may be another file now: its lines say again whose it is.
  const named = plans.flatMap((plan) => {
    const known = plan.start === 0 ? undefined : plan.prior?.sessionId;
    const sessionId = plan.file.sessionId ?? known ?? headSessionId(plan.file.path);
    return sessionId === undefined ? [] : [{ plan, sessionId }];
  });
  const jobs = named.map(({ plan }): ParseJob => ({
    path: plan.file.path,
    start: plan.start,
    facts: plan.start === 0 ? {} : { ...plan.prior?.facts },
    hash: plan.hash,
  }));
  const sizes = named.map(({ plan }) => plan.file.size - plan.start);
  const reader = total >= (options.workerBytes ?? WORKER_BYTES)
    ? workerReader(jobs, sizes)
    : localReader(jobs);
  let done = total - sizes.reduce((sum, size) => sum + size, 0);
  let batch = 0;
  // Pages written are not read again soon: a small cache, and no memory map (its pages count as
  // the process's memory), keep a build's memory down.
  index.db.exec(`PRAGMA cache_size = ${-WRITE_CACHE_KB}; PRAGMA mmap_size = 0`);
  index.db.exec("BEGIN IMMEDIATE");
  try {
    for (const file of gone) index.dropFile(file.id);
    for (const [i, { plan, sessionId }] of named.entries()) {
      const read = await storeFile(index, plan, { sessionId, reader });
      if (read === null) stats.unreadable.push(plan.file.path);
      else stats.bytes += read;
      stats.files++;
      reader.stored(sizes[i]);
      done += sizes[i];
      batch += sizes[i];
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
  } finally {
    reader.close();
    index.db.exec(`PRAGMA cache_size = ${-QUERY_CACHE_KB}; PRAGMA mmap_size = ${QUERY_MMAP_BYTES}`);
  }
  stats.files += plans.length - named.length;
}

/**
 * Put a file's text in the index as the reader hands it over; returns the
 * bytes read, or null when the file could not be read, which leaves it no
 * row (the next update reads it from the start).
 */
async function storeFile(
  index: FindIndexDb,
  { file, prior, start }: Plan,
  { sessionId, reader }: { sessionId: string; reader: Reader },
): Promise<number | null> {
  const first = start === 0 ? 0 : prior?.nextDoc ?? 0;
  const record = {
    id: prior?.id,
    path: file.path,
    sessionId,
    projectDir: file.projectDir,
    subagent: file.subagent,
    identity: file.identity,
    size: file.size,
    mtimeMs: file.mtimeMs,
    ctimeMs: file.ctimeMs,
  };
  if (prior !== undefined && start === 0) index.clearDocs(prior.id);
  let id = prior?.id;
  let next = first;
  while (true) {
    const part = await reader.next();
    if ("ended" in part) {
      const ended = part.ended;
      if (!ended.readable) {
        if (id !== undefined) index.dropFile(id);
        return null;
      }
      index.saveFile({
        ...record,
        id,
        offset: ended.end,
        prefixHash: ended.prefixHash,
        nextDoc: next,
        facts: ended.facts,
      });
      return ended.bytes;
    }
    // The row first, for its id; its offset is set when the whole file is in.
    id ??= index.saveFile({ ...record, offset: start, prefixHash: "", nextDoc: first, facts: {} });
    const { docs } = part;
    for (let i = 0; i < docs.text.length; i++) {
      index.addDoc(
        id,
        next++,
        { role: docs.role[i], text: docs.text[i], timestamp: docs.timestamp[i] ?? undefined },
        { lineAt: docs.lineAt[i], lineLength: docs.lineLength[i], part: docs.part[i] },
      );
    }
  }
}

/** The parts of the read files, in the order of the jobs. */
interface Reader {
  next(): Promise<ParsedPart>;
  /** The last file given is stored: `bytes` of transcript the worker may read further ahead. */
  stored(bytes: number): void;
  close(): void;
}

/** Reads on this thread, a file at a time (its parts are few: see index_parse.ts). */
function localReader(jobs: ParseJob[]): Reader {
  let job = 0;
  const parts: ParsedPart[] = [];
  return {
    next: () => {
      if (parts.length === 0) parseJob(jobs[job++], (part) => parts.push(part));
      return Promise.resolve(parts.shift()!);
    },
    stored: () => {},
    close: () => {},
  };
}

function workerReader(jobs: ParseJob[], sizes: number[]): Reader {
  const worker = new Worker(new URL("./index_parse_worker.ts", import.meta.url), {
    type: "module",
  });
  const arrived: ParsedPart[] = [];
  let waiting: { resolve: (part: ParsedPart) => void; reject: (error: Error) => void } | undefined;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure = error;
    waiting?.reject(error);
    waiting = undefined;
  };
  worker.onmessage = (event: MessageEvent) => {
    if (typeof event.data?.failed === "string") return fail(new Error(event.data.failed));
    if (waiting === undefined) arrived.push(event.data);
    else {
      waiting.resolve(event.data);
      waiting = undefined;
    }
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    fail(new Error(event.message));
  };
  worker.postMessage({ jobs, sizes, window: WORKER_WINDOW });
  return {
    next: () => {
      if (failure !== undefined) return Promise.reject(failure);
      const part = arrived.shift();
      if (part !== undefined) return Promise.resolve(part);
      return new Promise((resolve, reject) => waiting = { resolve, reject });
    },
    stored: (bytes) => worker.postMessage({ stored: bytes }),
    close: () => worker.terminate(),
  };
}
