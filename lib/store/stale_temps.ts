/**
 * Temporary files a killed writer left behind. `writeFileAtomic`
 * (atomic_write.ts) names its temporary file `<target>.tmp-<pid>`, and
 * `copySync` (copy.ts) builds its copy, a file or a whole folder, under
 * `<target>.partial-<pid>`; a process killed before the rename leaves either
 * beside the target for good.
 *
 * @module
 */

import { basename, join } from "../core/path.ts";
import { readDirOrEmpty } from "../core/fs_checks.ts";
import { isProcessAlive } from "../core/pid_manifest.ts";
import { isSessionId, transcriptSessionId } from "../core/registry.ts";
import { SESSION_INDEX_FILE } from "../core/session_index.ts";

/** The temporary names' endings: `.tmp-<pid>` or `.partial-<pid>` of the writing process. */
const TEMP_NAME = /\.(?:tmp|partial)-(\d+)$/;

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

/**
 * Remove from `dir` the `<name>.tmp-<pid>` files and `<name>.partial-<pid>`
 * files or folders whose writer is no longer running; a running writer's are
 * kept. Best effort; returns the paths removed.
 */
export function removeDeadWritersTemps(dir: string, options: StaleTempsOptions = {}): string[] {
  const removed: string[] = [];
  const only = options.of === undefined ? null : `${basename(options.of)}.`;
  for (const entry of readDirOrEmpty(dir)) {
    if (only !== null && !entry.name.startsWith(only)) continue;
    const temp = TEMP_NAME.exec(entry.name);
    if (temp === null) continue;
    if (options.named !== undefined && !options.named(entry.name.slice(0, temp.index))) {
      continue;
    }
    const pid = temp[1];
    if (isProcessAlive(Number(pid))) continue;
    // `copySync` copies folders and links too, and only under `.partial-` names.
    if (!entry.isFile && !entry.name.includes(".partial-")) continue;
    const path = join(dir, entry.name);
    try {
      Deno.removeSync(path, { recursive: entry.isDirectory });
      removed.push(path);
    } catch {
      // Gone already, or not ours to remove: it stays.
    }
  }
  return removed;
}

/**
 * Remove from a project folder under `~/.claude/projects` what a killed
 * claudecm left there: unfinished copies of a session's transcript or
 * sidecar folder (P#, a move aside; copy.ts) and of `sessions-index.json`
 * (its sync). Claude's own files are not claudecm's to remove.
 */
export function removeDeadWritersTempsInProject(folder: string): string[] {
  return removeDeadWritersTemps(folder, {
    named: (name) =>
      isSessionId(name) || transcriptSessionId(name) !== null || name === SESSION_INDEX_FILE,
  });
}
