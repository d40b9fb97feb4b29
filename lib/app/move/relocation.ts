/**
 * Sessions Claude Code moved itself. `/cd` (2.1.332) renames the transcript
 * into the new folder's project key and appends a `relocated` record; an
 * older claude leaves only a transcript in another folder's key whose
 * latest `cwd` is that folder. Either way the row follows on the next pick,
 * so `resume N` starts claude where the session now is.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { sameFolder } from "../../core/folder_match.ts";
import { isDirectory } from "../../core/fs_checks.ts";
import { projectDirFor } from "../../core/paths.ts";
import { findSession, type Session, validateSessionDir } from "../../core/registry.ts";
import { changeDir } from "../../core/registry_ops.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { readSessionFolder } from "../../transcript/session_folder.ts";
import { readHeadCwd, readTail } from "../../transcript/tail.ts";

/** The folder claude moved `session` to, when its transcript says so and the folder exists; else null. */
export function relocatedFolder(ctx: AppContext, session: Session): string | null {
  const located = locateTranscript(ctx.paths, session);
  if (located.status !== "found" || located.inOwnFolder) return null;
  let folder: string | undefined;
  try {
    const recorded = readSessionFolder(located.path);
    folder = recorded.relocated ? recorded.folder : undefined;
    if (folder === undefined) folder = newerCwdHere(ctx, located.path);
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
function newerCwdHere(ctx: AppContext, transcript: string): string | undefined {
  const latest = readTail(transcript).cwd;
  const first = readHeadCwd(transcript);
  if (latest === undefined || first === undefined || sameFolder(latest, first, ctx.os)) {
    return undefined;
  }
  const holder = ctx.paths.path.dirname(transcript);
  return projectDirFor(ctx.paths, latest) === holder ? latest : undefined;
}

/** Point `session`'s row at the folder claude moved it to, if it did; returns the session as it now is. */
export async function followRelocation(ctx: AppContext, session: Session): Promise<Session> {
  const folder = relocatedFolder(ctx, session);
  if (folder === null) return session;
  await changeRegistry(
    ctx,
    (r) => findSession(r, session.guid) === undefined ? r : changeDir(r, session.guid, folder),
  );
  ctx.out.line(`  Claude moved this session to ${folder}; the list now points there.`, "cyan");
  return { ...session, dir: folder };
}
