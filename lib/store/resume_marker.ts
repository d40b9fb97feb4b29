/**
 * The marker a claudecm keeps while it runs claude on a session it names:
 * `~/.claudecm/resuming/<pid>.json`, shaped like a claude pid manifest
 * (`pid`, `sessionId`, `cwd`, `procStart`). Other windows count the session
 * as live while it is there and its process runs (pid_manifest.ts): a
 * resumed claude may fork to a new id, and its own manifest then names only
 * that one; a new session's row is written before claude starts, and claude
 * writes its manifest only once it is up. A marker left by a killed
 * claudecm names a dead pid and counts for nothing; the next claudecm that
 * marks a session removes it (and a killed write's temporary file).
 *
 * @module
 */

import type { Paths } from "../core/paths.ts";
import { isProcessAlive, processStart } from "../platform/processes.ts";
import { readDirOrEmpty } from "../core/fs_checks.ts";
import { join } from "../core/path.ts";
import { removeDeadWritersTemps } from "./stale_temps.ts";
import { writeFileAtomic } from "./atomic_write.ts";

/** Mark session `guid` as open in this process's claude, in `cwd`; returns the marker's remover. */
export function markSessionInUse(
  paths: Paths,
  session: { guid: string; cwd: string },
): () => void {
  const path = paths.path.join(paths.resumingDir, `${Deno.pid}.json`);
  const marker = {
    pid: Deno.pid,
    sessionId: session.guid,
    cwd: session.cwd,
    procStart: processStart(Deno.pid) ?? undefined,
  };
  try {
    Deno.mkdirSync(paths.resumingDir, { recursive: true });
    removeDeadMarkers(paths.resumingDir);
    writeFileAtomic(path, JSON.stringify(marker));
  } catch {
    // Without a marker the session is live to others through claude's manifest only, as before.
    return () => {};
  }
  return () => {
    try {
      Deno.removeSync(path);
    } catch {
      // Already gone: nothing to unmark.
    }
  };
}

/** The markers (and their temporary files) of claudecm processes that are gone. */
function removeDeadMarkers(dir: string): void {
  removeDeadWritersTemps(dir);
  for (const entry of readDirOrEmpty(dir)) {
    const pid = /^(\d+)\.json$/.exec(entry.name)?.[1];
    if (pid === undefined || !entry.isFile || isProcessAlive(Number(pid))) continue;
    try {
      Deno.removeSync(join(dir, entry.name));
    } catch {
      // Gone already (another window swept it).
    }
  }
}
