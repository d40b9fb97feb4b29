/**
 * Temporary files a killed writer left behind. `writeFileAtomic`
 * (atomic_write.ts) names its temporary file `<target>.tmp-<pid>`, and
 * `copySync` (copy.ts) builds its copy, a file or a whole folder, under
 * `<target>.partial-<pid>`; a process killed before the rename leaves either
 * beside the target for good.
 *
 * @module
 */

import { basename, dirname, join } from "../core/path.ts";
import { readDirOrEmpty } from "../core/fs_checks.ts";
import { isProcessAlive } from "../platform/processes.ts";
import { isSessionId, transcriptSessionId } from "../core/registry.ts";
import { SESSION_INDEX_FILE } from "../core/session_index.ts";

/**
 * The temporary names' endings: `.tmp-<pid>` or `.partial-<pid>` of the
 * writing process, and `.claudecm-<pid>` (`~/.claude.json`'s, kept apart
 * from the names claude's own writers use there).
 */
const TEMP_NAME = /\.(?:tmp|partial|claudecm)-(\d+)$/;

/**
 * Options for {@linkcode removeDeadWritersTemps}. In a folder that is not
 * claudecm's own (`~/.claude`, a rescue workspace, wherever a copy goes),
 * one of them must say which names claudecm writes there: a user's file
 * that merely ends like a temporary one is not claudecm's to remove.
 */
export interface StaleTempsOptions {
  /** Only the temporary files of this target (its path). */
  of?: string;
  /** Only the temporary files of targets whose names this accepts. */
  named?: (name: string) => boolean;
}

/** A temporary file (or `.partial-` folder) whose writer is no longer running. */
export interface StaleTemp {
  path: string;
  /** What it takes on disk: a folder's files added up. */
  bytes: number;
}

/**
 * The `<name>.tmp-<pid>` files and `<name>.partial-<pid>` files or folders
 * in `dir` whose writer is no longer running; a running writer's are left
 * out. Reads only (doctor reports them).
 */
export function findDeadWritersTemps(dir: string, options: StaleTempsOptions = {}): StaleTemp[] {
  const found: StaleTemp[] = [];
  const only = options.of === undefined ? null : `${basename(options.of)}.`;
  for (const entry of readDirOrEmpty(dir)) {
    if (only !== null && !entry.name.startsWith(only)) continue;
    const temp = TEMP_NAME.exec(entry.name);
    if (temp === null) continue;
    if (options.named !== undefined && !options.named(entry.name.slice(0, temp.index))) {
      continue;
    }
    if (isProcessAlive(Number(temp[1]))) continue;
    // `copySync` copies folders and links too, and only under `.partial-` names.
    if (!entry.isFile && !entry.name.includes(".partial-")) continue;
    const path = join(dir, entry.name);
    found.push({ path, bytes: bytesUnder(path) });
  }
  return found;
}

/**
 * Remove from `dir` the `<name>.tmp-<pid>` files and `<name>.partial-<pid>`
 * files or folders whose writer is no longer running; a running writer's are
 * kept. Best effort; returns the paths removed.
 */
export function removeDeadWritersTemps(dir: string, options: StaleTempsOptions = {}): string[] {
  const removed: string[] = [];
  for (const { path } of findDeadWritersTemps(dir, options)) {
    try {
      Deno.removeSync(path, { recursive: true });
      removed.push(path);
    } catch {
      // Gone already, or not ours to remove: it stays.
    }
  }
  return removed;
}

/**
 * What a writer of `target` calls before it writes it: the temporary files
 * an earlier, killed writer of the same file left beside it go (issue 30
 * item 15). Only names made from `target`'s, so safe in any folder.
 */
export function removeDeadWritersTempsOf(target: string): string[] {
  return removeDeadWritersTemps(dirname(target), { of: target });
}

function bytesUnder(path: string): number {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isDirectory) return info.size;
    let bytes = 0;
    for (const entry of Deno.readDirSync(path)) bytes += bytesUnder(join(path, entry.name));
    return bytes;
  } catch {
    return 0;
  }
}

/**
 * The names claudecm writes in a project folder under `~/.claude/projects`:
 * copies of a session's transcript or sidecar folder (P#, a move aside, a
 * restore) and `sessions-index.json` (its sync). Claude's own files are not
 * claudecm's to remove.
 */
export const PROJECT_TEMPS: StaleTempsOptions = {
  named: (name) =>
    isSessionId(name) || transcriptSessionId(name) !== null || name === SESSION_INDEX_FILE,
};

/** Remove from a project folder what a killed claudecm left there ({@linkcode PROJECT_TEMPS}). */
export function removeDeadWritersTempsInProject(folder: string): string[] {
  return removeDeadWritersTemps(folder, PROJECT_TEMPS);
}
