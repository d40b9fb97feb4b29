/**
 * The writing half of an index update (index_update.ts plans it): read each
 * changed file from where its plan starts (index_parse.ts) and put its text
 * in the index, in batched transactions. A large update reads in a worker
 * while this thread inserts (the build is CPU-bound: reading is about half
 * of it, the FTS5 inserts the other half). Loaded only when a file changed.
 *
 * @module
 */

import type { FindIndexDb, IndexedFile } from "../../store/find_index_db.ts";
import { headSessionId } from "../../transcript/head_session.ts";
import { type ParsedFile, type ParseJob, parseJob } from "./index_parse.ts";
import type { IndexStats, Plan, ProgressListener } from "./index_update.ts";

/** Transcript bytes indexed per commit. */
const BATCH_BYTES = 64 * 1024 * 1024;
/** Updates of at least this many bytes read in a worker (starting one costs tens of ms). */
const WORKER_BYTES = 16 * 1024 * 1024;
/** How far the worker may read ahead of what is stored, in transcript bytes. */
const WORKER_WINDOW = 32 * 1024 * 1024;

/** What an update found to do. */
export interface Work {
  plans: Plan[];
  gone: IndexedFile[];
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
  const named = plans.flatMap((plan) => {
    const sessionId = plan.file.sessionId ?? plan.prior?.sessionId ?? headSessionId(plan.file.path);
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
  index.db.exec("BEGIN IMMEDIATE");
  try {
    for (const file of gone) index.dropFile(file.id);
    for (const [i, { plan, sessionId }] of named.entries()) {
      const parsed = await reader.next();
      if (parsed.readable) {
        stats.bytes += storeFile(index, plan, { sessionId, parsed });
      } else {
        // Left with no row, so the next update reads it from the start.
        if (plan.prior !== undefined) index.dropFile(plan.prior.id);
        stats.unreadable.push(plan.file.path);
      }
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
  }
  stats.files += plans.length - named.length;
}

/** Put a read file's text in the index; returns the bytes read. */
function storeFile(
  index: FindIndexDb,
  { file, prior, start }: Plan,
  { sessionId, parsed }: { sessionId: string; parsed: ParsedFile & { readable: true } },
): number {
  if (prior !== undefined && start === 0) index.clearDocs(prior.id);
  const first = start === 0 ? 0 : prior?.nextDoc ?? 0;
  const { docs } = parsed;
  const id = index.saveFile({
    id: prior?.id,
    path: file.path,
    sessionId,
    projectDir: file.projectDir,
    subagent: file.subagent,
    identity: file.identity,
    size: file.size,
    mtimeMs: file.mtimeMs,
    offset: parsed.end,
    prefixHash: parsed.prefixHash,
    nextDoc: first + docs.text.length,
    facts: parsed.facts,
  });
  for (let i = 0; i < docs.text.length; i++) {
    index.addDoc(
      id,
      first + i,
      { role: docs.role[i], text: docs.text[i], timestamp: docs.timestamp[i] ?? undefined },
      { lineAt: docs.lineAt[i], lineLength: docs.lineLength[i], part: docs.part[i] },
    );
  }
  return parsed.bytes;
}

/** The read files, in the order of the jobs. */
interface Reader {
  next(): Promise<ParsedFile>;
  /** The last file given is stored: `bytes` of transcript the worker may read further ahead. */
  stored(bytes: number): void;
  close(): void;
}

function localReader(jobs: ParseJob[]): Reader {
  let next = 0;
  return {
    next: () => Promise.resolve(parseJob(jobs[next++])),
    stored: () => {},
    close: () => {},
  };
}

function workerReader(jobs: ParseJob[], sizes: number[]): Reader {
  const worker = new Worker(new URL("./index_parse_worker.ts", import.meta.url), {
    type: "module",
  });
  const arrived: ParsedFile[] = [];
  let waiting: { resolve: (file: ParsedFile) => void; reject: (error: Error) => void } | undefined;
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
      const file = arrived.shift();
      if (file !== undefined) return Promise.resolve(file);
      return new Promise((resolve, reject) => waiting = { resolve, reject });
    },
    stored: (bytes) => worker.postMessage({ stored: bytes }),
    close: () => worker.terminate(),
  };
}
