/**
 * The picker's index update, in a worker: a first build of a large history
 * takes seconds of work, which on the main thread would hold every key typed
 * meanwhile. It takes the index's lock (without waiting: another claudecm
 * updating it is as good), brings the index up to date and says so; the
 * picker then reads the index itself.
 *
 * Message in: `{ path, projectsDir }`. Out: `{ done: true }` or `{ failed: message }`.
 *
 * @module
 */

import { FindIndexDb } from "../../store/find_index_db.ts";
import { findIndexLockPath } from "../../store/find_index_file.ts";
import { withFileLock } from "../../store/lock.ts";
import { updateIndex } from "../find/index_update.ts";

/** The worker's side of its port (the global scope of a worker). */
interface Port {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

const port = globalThis as unknown as Port;

port.onmessage = async (event) => {
  const { path, projectsDir } = event.data as { path: string; projectsDir: string };
  try {
    await withFileLock(findIndexLockPath(path), async ({ held }) => {
      if (!held) return;
      const db = FindIndexDb.open(path, { writer: true })!;
      try {
        await updateIndex(db, projectsDir);
      } finally {
        db.close();
      }
    }, { timeoutMs: 0 });
    port.postMessage({ done: true });
  } catch (error) {
    port.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
};
