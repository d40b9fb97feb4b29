/**
 * Whether a failed write means the disk refuses writes there (no permission,
 * read-only, no room), the ONE answer every way of going on without writing
 * asks (issue 30 item 11). Apart from errors.ts so that the command tree,
 * which loads that, does not load the OS fact this needs.
 *
 * @module
 */

import { environmentFailure, errorMessage } from "./errors.ts";
import type { OsName } from "./paths.ts";
import { hostOs } from "../platform/os.ts";

/** Why a disk refuses a write: no permission (EACCES, EPERM), read-only (EROFS), no room (ENOSPC, EDQUOT). */
export type WriteRefusal = "denied" | "readOnly" | "full";

/**
 * The ONE answer to "may claudecm write there at all?": why `error` says the
 * disk refuses writes, or null for any other failure. Every place that has a
 * way to go on without writing (find without its index, the vault, backups,
 * a run that saves nothing) asks this, so the four causes take one path
 * (issue 30 item 11). It reads Deno's errors (their code, else their OS error
 * number, read as `os` numbers them: this machine's unless a test says)
 * and SQLite's (the search index).
 */
export function writeRefusal(error: unknown, options: { os?: OsName } = {}): WriteRefusal | null {
  const failure = environmentFailure(error)?.failure;
  if (failure === "denied" || failure === "readOnly" || failure === "full") return failure;
  if (failure !== undefined) return null;
  const message = errorMessage(error);
  const number = /\(os error (\d+)\)/.exec(message)?.[1];
  const byNumber = number === undefined
    ? undefined
    : REFUSAL_BY_OS_ERROR[options.os ?? hostOs]?.[number];
  if (byNumber !== undefined) return byNumber;
  for (const [pattern, refusal] of SQLITE_REFUSALS) if (pattern.test(message)) return refusal;
  return null;
}

/** OS error numbers of a refused write, where an error carries no code. */
const REFUSAL_BY_OS_ERROR: Partial<Record<string, Record<string, WriteRefusal>>> = {
  linux: { 1: "denied", 13: "denied", 30: "readOnly", 28: "full", 122: "full" },
  darwin: { 1: "denied", 13: "denied", 30: "readOnly", 28: "full", 69: "full" },
  // ERROR_ACCESS_DENIED, ERROR_WRITE_PROTECT, ERROR_HANDLE_DISK_FULL, ERROR_DISK_FULL.
  windows: { 5: "denied", 19: "readOnly", 39: "full", 112: "full" },
};

/** What SQLite says when the search index cannot be written. */
const SQLITE_REFUSALS: Array<[RegExp, WriteRefusal]> = [
  [/attempt to write a readonly database/i, "readOnly"],
  [/unable to open database file/i, "denied"],
  [/database or disk is full/i, "full"],
];

/** Whether `error` means the disk refuses writes: no permission, read-only, full. */
export function isWriteRefusal(error: unknown): boolean {
  return writeRefusal(error) !== null;
}

/** Whether `error` says the disk (or the user's quota) has no room left. */
export function isNoRoom(error: unknown): boolean {
  return writeRefusal(error) === "full";
}
