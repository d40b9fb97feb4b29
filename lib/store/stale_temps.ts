/**
 * Temporary files a killed writer left behind. `writeFileAtomic`
 * (atomic_write.ts) names its temporary file `<target>.tmp-<pid>`; a process
 * killed between writing and renaming leaves it beside the target for good.
 *
 * @module
 */

import { join } from "../core/path.ts";
import { readDirOrEmpty } from "../core/fs_checks.ts";
import { isProcessAlive } from "../core/pid_manifest.ts";

/** The default temporary name's ending: `.tmp-<pid>` of the writing process. */
const DEFAULT_TMP = /\.tmp-(\d+)$/;

/**
 * Remove from `dir` the `<name>.tmp-<pid>` files whose writer is no longer
 * running; a running writer's file is kept. Best effort; returns the paths
 * removed.
 */
export function removeDeadWritersTemps(dir: string): string[] {
  const removed: string[] = [];
  for (const entry of readDirOrEmpty(dir)) {
    const pid = DEFAULT_TMP.exec(entry.name)?.[1];
    if (!entry.isFile || pid === undefined || isProcessAlive(Number(pid))) continue;
    const path = join(dir, entry.name);
    try {
      Deno.removeSync(path);
      removed.push(path);
    } catch {
      // Gone already, or not ours to remove: it stays.
    }
  }
  return removed;
}
