/**
 * The find index as a file: the lock its writer holds, what says the file
 * is damaged or the disk full, and its removal (derived data: the next
 * writer rebuilds it).
 *
 * @module
 */

import { UserError } from "../core/errors.ts";
import { isNoRoom } from "../core/write_refusal.ts";

/**
 * Whether an error says the database file is damaged or not a database at
 * all, or that our own tables are missing or broken in it (a crash with
 * `synchronous = OFF` may leave that).
 */
export function isCorruptDatabase(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /malformed|not a database|corrupt|file is encrypted|no such (table|column)|vtable constructor failed/i
    .test(message);
}

/** Whether an error says a write found no room (SQLITE_FULL, ENOSPC, a quota): `isNoRoom`. */
export function isDiskFull(error: unknown): boolean {
  return isNoRoom(error);
}

/** The lock a writer holds while it changes the index. */
export function findIndexLockPath(dbPath: string): string {
  return `${dbPath}.lock`;
}

/** Delete the index and its side files (derived data: the next writer rebuilds it). */
export function discardFindIndex(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    try {
      if (Deno.lstatSync(file).isDirectory) {
        throw new UserError(`${file} is a folder where the search index belongs; move it away`);
      }
      Deno.removeSync(file);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}
