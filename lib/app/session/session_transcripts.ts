/**
 * Every session transcript on disk, one per session id: in claude's project
 * folders first, else the copy claudecm set aside in its backup folder, else
 * the vault's. What `tree` reads its records from, and where `export` and
 * `tree` look for an id prefix no row has.
 *
 * @module
 */

import { isFile, readDirOrEmpty, subdirectoryNames } from "../../core/fs_checks.ts";
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
  // A transcript may be a link to a file elsewhere, as the list and export take it.
  const aFile = (entry: Deno.DirEntry, path: string) =>
    entry.isFile || (entry.isSymlink && isFile(path));
  const scan = (root: string, place: "projects" | "vault") => {
    for (const name of subdirectoryNames(root)) {
      const folder = join(root, name);
      for (const entry of readDirOrEmpty(folder)) {
        const path = join(folder, entry.name);
        const id = transcriptSessionId(entry.name);
        if (id !== null && !found.has(id) && aFile(entry, path)) found.set(id, { path, place });
      }
    }
  };
  scan(ctx.paths.projectsDir, "projects");
  for (const name of subdirectoryNames(ctx.paths.backupDir)) {
    const folder = join(ctx.paths.backupDir, name);
    for (const entry of readDirOrEmpty(folder)) {
      const match = /^(.+)\.jsonl(?:\.\d+)?$/.exec(entry.name);
      const id = match ? transcriptSessionId(`${match[1]}.jsonl`) : null;
      const path = join(folder, entry.name);
      if (id !== null && !found.has(id) && aFile(entry, path)) {
        found.set(id, { path, place: "backup" });
      }
    }
  }
  // Last: the vault keeps a copy of a set-aside predecessor too, but it was claudecm that set it
  // aside, not claude that deleted it.
  scan(ctx.paths.vaultDir, "vault");
  return found;
}
