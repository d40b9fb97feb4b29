/**
 * The folder a transcript belongs to, decided as Claude Code decides it
 * (2.1.332): the folder `/cd` last moved the session to (a `relocated`
 * record, re-appended with the closing metadata, so it sits in the tail),
 * else the first `cwd` the transcript records (where it was started).
 *
 * @module
 */

import { readHeadCwd, readTail } from "./tail.ts";

/** What a transcript says of its folder. */
export interface SessionFolder {
  /** The folder it belongs to; undefined when it records none (no message yet). */
  folder?: string;
  /** Whether `folder` comes from a `/cd` record. */
  relocated: boolean;
  /** The last activity, to tell the newer of two records. */
  lastTimestamp?: string;
}

/** Read where the transcript at `path` belongs; throws when it cannot be read. */
export function readSessionFolder(path: string): SessionFolder {
  const tail = readTail(path);
  if (tail.relocatedCwd !== undefined) {
    return { folder: tail.relocatedCwd, relocated: true, lastTimestamp: tail.lastTimestamp };
  }
  return { folder: readHeadCwd(path), relocated: false, lastTimestamp: tail.lastTimestamp };
}
