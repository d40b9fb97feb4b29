/**
 * Sessions Claude Code moved itself. `/cd` (2.1.332) renames the transcript
 * into the new folder's project key and appends a `relocated` record; an
 * older claude leaves only a transcript in another folder's key whose
 * latest `cwd` is that folder. Either way the row follows on the next run
 * that writes (the bootstrap, for every row; a resume, for its own), so
 * `resume N` starts claude where the session now is. Loaded only for a row
 * whose transcript left its own project folder.
 *
 * @module
 */

import { type AppContext, statusOut } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { sameFolder } from "../../core/folder_match.ts";
import { isDirectory } from "../../core/fs_checks.ts";
import { projectDirFor } from "../../core/paths.ts";
import { findSession, type Session, validateSessionDir } from "../../core/registry.ts";
import { changeDir } from "../../core/registry_ops.ts";
import {
  createLocateCache,
  type LocateCache,
  locateTranscript,
} from "../../core/transcript_location.ts";
import { readHeadCwd, readTail } from "../../transcript/tail.ts";

/** The folder claude moved `session` to, when its transcript says so and the folder exists; else null. */
export function relocatedFolder(
  ctx: AppContext,
  session: Session,
  cache: LocateCache = createLocateCache(),
): string | null {
  const located = locateTranscript(ctx.paths, session, cache);
  if (located.status !== "found" || located.inOwnFolder) return null;
  let folder: string | undefined;
  try {
    // One tail read serves both signs: a `/cd` record, else the latest cwd.
    const tail = readTail(located.path);
    folder = tail.relocatedCwd ?? newerCwdHere(ctx, located.path, tail.cwd);
  } catch {
    return null;
  }
  if (folder === undefined || sameFolder(folder, session.dir, ctx.os)) return null;
  try {
    validateSessionDir(folder);
  } catch {
    return null;
  }
  return isDirectory(folder) ? folder : null;
}

/**
 * Without a `/cd` record: the session's cwd changed since it started, and
 * the transcript now sits in the key of that newer cwd.
 */
function newerCwdHere(
  ctx: AppContext,
  transcript: string,
  latest: string | undefined,
): string | undefined {
  const first = readHeadCwd(transcript);
  if (latest === undefined || first === undefined || sameFolder(latest, first, ctx.os)) {
    return undefined;
  }
  const holder = ctx.paths.path.dirname(transcript);
  return projectDirFor(ctx.paths, latest) === holder ? latest : undefined;
}

/**
 * Point the rows of `sessions` at the folders claude moved them to, in one
 * registry write, and say so; returns the sessions that moved, as they now
 * are. A row another run changed meanwhile (moved, dropped) is left as it is.
 */
export async function followRelocations(
  ctx: AppContext,
  sessions: readonly Session[],
  cache: LocateCache = createLocateCache(),
): Promise<Session[]> {
  const found = sessions.flatMap((session) => {
    const folder = relocatedFolder(ctx, session, cache);
    return folder === null ? [] : [{ seen: session, now: { ...session, dir: folder } }];
  });
  if (found.length === 0) return [];
  const followed = new Set<string>();
  await changeRegistry(ctx, (registry) => {
    followed.clear();
    let changed = registry;
    for (const { seen, now } of found) {
      // Compare and swap: only a row still in the folder this run saw it in.
      if (findSession(changed, seen.guid)?.dir !== seen.dir) continue;
      changed = changeDir(changed, seen.guid, now.dir);
      followed.add(seen.guid);
    }
    return changed;
  });
  const moved = found.filter(({ seen }) => followed.has(seen.guid)).map(({ now }) => now);
  for (const { desc, dir } of moved) {
    statusOut(ctx).line(`  Claude moved '${desc}' to ${dir}; the list now points there.`, "cyan");
  }
  return moved;
}

/** Point `session`'s row at the folder claude moved it to, if it did; returns the session as it now is. */
export async function followRelocation(ctx: AppContext, session: Session): Promise<Session> {
  const [moved] = await followRelocations(ctx, [session]);
  return moved ?? session;
}
