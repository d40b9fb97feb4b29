/**
 * Issue 21, the first step of every resume of a registered session: the
 * row as it is now (the bootstrap may have moved it since the caller read
 * it), following a `/cd` claude made, and, for a folder that is gone, the
 * question of where it went.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { isFolderGone } from "../../core/fs_checks.ts";
import { findSession, type Session } from "../../core/registry.ts";
import { transcriptInOwnFolder } from "../../core/transcript_location.ts";
import { readRegistry } from "../../store/registry_store.ts";

/**
 * `session` in the folder it is in now; null when its folder is gone and the
 * user gave none, or when its row is gone: a list or picker shown before
 * another window deleted it is no reason to resume it (into the lost-
 * transcript recovery, as if Claude Code's clean-up had taken it).
 */
export async function followFolderMoves(
  ctx: AppContext,
  session: Session,
): Promise<Session | null> {
  const row = findSession(readRegistry(ctx.paths), session.guid);
  if (row === undefined) {
    ctx.err.line(
      `  '${session.desc}' is no longer in the session list (another window removed it since ` +
        "it was shown); nothing resumed.",
      "red",
    );
    return null;
  }
  let current = { ...session, dir: row.dir };
  if (!transcriptInOwnFolder(ctx.paths, current)) {
    const { followRelocation } = await import("../move/relocation.ts");
    current = await followRelocation(ctx, current);
  }
  if (!isFolderGone(current.dir)) return current;
  const { askWhereFolderWent } = await import("../move/gone_folder.ts");
  return await askWhereFolderWent(ctx, current);
}
