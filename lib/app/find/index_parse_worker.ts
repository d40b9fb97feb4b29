/**
 * The worker of a large index update: reads the changed transcripts
 * (index_parse.ts) while the main thread puts the previous ones in the
 * index, so a first build uses two cores. Results go back in the order of
 * the jobs; the worker stays at most `window` transcript bytes ahead of what
 * the main thread has stored, so its results never pile up in memory.
 *
 * Messages in: `{ jobs, sizes, window }` once, then `{ stored: bytes }`.
 * Out: each job's `ParsedPart`s, in order, or `{ failed: message }`.
 *
 * @module
 */

import { type ParseJob, parseJob } from "./index_parse.ts";

/** The worker's side of its port (the global scope of a worker). */
interface Port {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

const port = globalThis as unknown as Port;
let stored = 0;
let wake: (() => void) | undefined;

port.onmessage = (event) => {
  const data = event.data;
  if (typeof data.stored === "number") {
    stored += data.stored;
    wake?.();
    return;
  }
  void run(data.jobs, data.sizes, data.window);
};

async function run(jobs: ParseJob[], sizes: number[], window: number): Promise<void> {
  let sent = 0;
  try {
    for (const [i, job] of jobs.entries()) {
      while (sent - stored > window) await new Promise<void>((resolve) => wake = resolve);
      parseJob(job, (part) => port.postMessage(part));
      sent += sizes[i];
    }
  } catch (error) {
    port.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
}
