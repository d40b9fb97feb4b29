/**
 * Every session transcript on disk, one per session id: in claude's project
 * folders first, else the copy claudecm set aside in its backup folder, else
 * the vault's. What `tree` reads its records from, and where `export` and
 * `tree` look for an id prefix no row has.
 *
 * @module
 */

import { readDirOrEmpty, subdirectoryNames } from "../../core/fs_checks.ts";
import { transcriptSessionId } from "../../core/registry.ts";
import type { AppContext } from "../context.ts";

/** Where a session's transcript is now. */
export type TranscriptPlace = "projects" | "vault" | "backup" | "none";

/** Each session's transcript: its path and where it sits. */
export type SessionTranscripts = Map<
  string,
  { path: string; place: Exclude<TranscriptPlace, "none"> }
>;

/**
 * One transcript per session: the one in claude's project folders first, else
 * the one claudecm set aside in its backup folder, else the vault's.
 */
export function findSessionTranscripts(ctx: AppContext): SessionTranscripts {
  const found: SessionTranscripts = new Map();
  const join = ctx.paths.path.join;
  const scan = (root: string, place: "projects" | "vault") => {
    for (const name of subdirectoryNames(root)) {
      const folder = join(root, name);
      for (const entry of readDirOrEmpty(folder)) {
        const id = entry.isFile ? transcriptSessionId(entry.name) : null;
        if (id !== null && !found.has(id)) found.set(id, { path: join(folder, entry.name), place });
      }
    }
  };
  scan(ctx.paths.projectsDir, "projects");
  for (const name of subdirectoryNames(ctx.paths.backupDir)) {
    const folder = join(ctx.paths.backupDir, name);
    for (const entry of readDirOrEmpty(folder)) {
      const match = /^(.+)\.jsonl(?:\.\d+)?$/.exec(entry.name);
      const id = entry.isFile && match ? transcriptSessionId(`${match[1]}.jsonl`) : null;
      if (id !== null && !found.has(id)) {
        found.set(id, { path: join(folder, entry.name), place: "backup" });
      }
    }
  }
  // Last: the vault keeps a copy of a set-aside predecessor too, but it was claudecm that set it
  // aside, not claude that deleted it.
  scan(ctx.paths.vaultDir, "vault");
  return found;
}
