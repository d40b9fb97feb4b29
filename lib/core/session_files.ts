/**
 * What a Claude project folder holds, for launch detection (spec 11.6.1 and
 * 11.6.2): snapshots of its UUID-named transcripts, the set-diff that finds a
 * fresh launch's session, and the fork test after a resume. Every scan stays
 * inside one project folder (spec 14 rule 2).
 *
 * @module
 */

import { readDirOrEmpty } from "./fs_checks.ts";
import { transcriptSessionId } from "./registry.ts";
import { compareText } from "./compare_text.ts";

/** Transcripts in a project folder: session id → mtime (ms). */
export type FolderSnapshot = Map<string, number>;

/** Snapshot the UUID-named `*.jsonl` files in `folder`; empty when it does not exist. */
export function snapshotFolder(
  folder: string,
  join: (...parts: string[]) => string,
): FolderSnapshot {
  const snapshot: FolderSnapshot = new Map();
  // No folder yet: nothing launched here before.
  for (const entry of readDirOrEmpty(folder)) {
    const guid = transcriptSessionId(entry.name);
    if (!entry.isFile || guid === null) continue;
    try {
      snapshot.set(guid, Deno.statSync(join(folder, entry.name)).mtime?.getTime() ?? 0);
    } catch {
      // Removed between the listing and the stat.
    }
  }
  return snapshot;
}

/** The most recently written session in a snapshot, or null when empty. */
export function newestSession(snapshot: FolderSnapshot): string | null {
  let newest: string | null = null;
  let newestTime = -Infinity;
  for (const [guid, mtime] of snapshot) {
    if (mtime > newestTime) [newest, newestTime] = [guid, mtime];
  }
  return newest;
}

/**
 * Spec 11.6.2's set-diff: the session that appeared between two snapshots.
 * Files that already existed are ignored however recently they were
 * touched, so a concurrent window cannot be mistaken for ours. With several
 * new files (two launches racing in one folder) the newest wins.
 */
export function newSessionBetween(before: FolderSnapshot, after: FolderSnapshot): string | null {
  const appeared: FolderSnapshot = new Map();
  for (const [guid, mtime] of after) if (!before.has(guid)) appeared.set(guid, mtime);
  return newestSession(appeared);
}

/**
 * Spec 11.6.1 step 4: after a successful resume of `originalGuid`, the
 * session claude forked into, or null when it did not fork. A fork is a
 * newest transcript that is not the original and did not exist before the
 * launch. The spec asks only that it differ from the newest before; asking
 * that it be new also keeps an older session that another window wrote to
 * meanwhile from passing for a fork. On a tie of times, a new file wins.
 */
export function forkAfterResume(
  originalGuid: string,
  before: FolderSnapshot,
  after: FolderSnapshot,
): string | null {
  const newest = newestSession(after);
  if (newest === null) return null;
  // Times have a millisecond's grain: a file that appeared during the launch and ties with the
  // newest was written last (it did not exist before), whatever order the folder was read in.
  const newestTime = after.get(newest)!;
  const appeared = [...after].filter(([guid, mtime]) =>
    mtime === newestTime && guid !== originalGuid && !before.has(guid)
  ).map(([guid]) => guid).sort(compareText);
  return appeared[0] ?? null;
}
