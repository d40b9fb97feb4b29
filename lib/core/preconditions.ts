/**
 * What a step that moves or deletes a session's files relies on, checked
 * again right before it acts (issue 17 item 2): the user confirmed what was
 * true when it was shown, and another window may have changed it since (a
 * claude started on the session, a row registered or removed, a transcript
 * appended to). Pure reads: the step itself is the app's.
 *
 * @module
 */

import { findSessionCopies } from "./session_copies.ts";
import type { Paths } from "./paths.ts";
import { findSession, namedSessionIds, type Registry } from "./registry.ts";

/** A file as it was when shown: the same inode, size and mtime mean the same unchanged file. */
export interface FileStamp {
  path: string;
  ino: number | null;
  size: number;
  mtimeMs: number | null;
}

/** What must still hold for session `guid` when the step acts. */
export interface Preconditions {
  guid: string;
  /**
   * `registered`: its row is still there (in `dir`, when given);
   * `unregistered`: no row has it (an orphan, a predecessor the row has left);
   * absent: either.
   */
  registration?: { registered: true; dir?: string } | { registered: false };
  /** Files the user saw: each must still be that file, unchanged. */
  files?: FileStamp[];
  /** The transcript copies under the projects root must be exactly these (no new one). */
  copies?: string[];
}

/** The stamp of the file at `path` now; null when it cannot be stat'ed. */
export function stampFile(path: string): FileStamp | null {
  try {
    const info = Deno.statSync(path);
    return { path, ino: info.ino, size: info.size, mtimeMs: info.mtime?.getTime() ?? null };
  } catch {
    return null;
  }
}

/**
 * Why the step must not act now, as a clause for "Nothing was done: ...";
 * null when everything it relies on still holds. Liveness comes first: a
 * session open in a claude window is never moved or deleted. `now` is what
 * is true at this moment: the registry read under the lock and whether the
 * session is live (lib/platform/live_sessions.ts asks the OS).
 */
export function preconditionFailure(
  now: { paths: Paths; registry: Registry; live: boolean },
  expected: Preconditions,
): string | null {
  const { paths, registry } = now;
  const { guid, registration } = expected;
  if (now.live) return "it is open in a claude window now";
  const row = findSession(registry, guid);
  if (registration?.registered === true) {
    if (row === undefined) return "it is no longer in the session list";
    if (registration.dir !== undefined && row.dir !== registration.dir) {
      return `another window changed its folder meanwhile (now ${row.dir})`;
    }
  } else if (registration?.registered === false && row !== undefined) {
    return `it was added to the session list meanwhile as '${row.desc}'`;
  } else if (registration?.registered === false && namedSessionIds(registry).has(guid)) {
    return "a line of the session list that does not parse names it (see claudecm doctor)";
  }
  for (const shown of expected.files ?? []) {
    const now = stampFile(shown.path);
    if (now === null) return `${shown.path} is gone`;
    if (!sameStamp(shown, now)) return `${shown.path} changed since it was shown`;
  }
  if (expected.copies !== undefined) {
    const shown = new Set(expected.copies);
    const appeared = findSessionCopies(paths, guid).find((copy) => !shown.has(copy.transcript));
    if (appeared !== undefined) return `another copy appeared meanwhile: ${appeared.transcript}`;
  }
  return null;
}

/** Whether two stamps are of one unchanged file. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.path === b.path && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}
