/**
 * claude's task outputs (`<temp root>/<cwd key>/<session id>/tasks/*.output`,
 * claude 2.1.332) are symbolic links into the session's `<id>/` folder when
 * the output is a subagent's transcript. claude's own `/cd` re-points the
 * links that point into the folder it moves (its `repointTaskOutputSymlinks`);
 * `claudecm move` does the same for each `<id>/` folder it moves, so a task
 * output path named in the session's lines still resolves.
 *
 * @module
 */

import type { EnvReader, OsName } from "../core/paths.ts";
import { join } from "../core/path.ts";
import { readDirOrEmpty } from "../core/fs_checks.ts";

/**
 * claude's temporary root: `claude-<uid>` in CLAUDE_CODE_TMPDIR, else in the
 * temp folder Node's `os.tmpdir()` names (TMPDIR, TMP, TEMP, else /tmp),
 * resolved as claude resolves it. Null on Windows, where claude writes no links.
 */
export function claudeTempRoot(env: EnvReader, os: OsName): string | null {
  if (os === "windows") return null;
  const base = [env("CLAUDE_CODE_TMPDIR"), env("TMPDIR"), env("TMP"), env("TEMP")]
    .find((value) => value !== undefined && value !== "") ?? "/tmp";
  let real = base.replace(/\/+$/, "") || "/";
  try {
    real = Deno.realPathSync(real);
  } catch {
    // Not there: nothing of claude's is under it either.
  }
  return join(real, `claude-${Deno.uid() ?? 0}`);
}

/**
 * Re-point every task-output link of session `guid` under `root` whose
 * target is inside folder `move.from` (given with its trailing separator)
 * to the same place inside `move.to`; returns how many were re-pointed.
 */
export function repointTaskOutputs(
  root: string,
  guid: string,
  move: { from: string; to: string },
): number {
  let count = 0;
  for (const key of readDirOrEmpty(root)) {
    if (!key.isDirectory) continue;
    const tasks = join(root, key.name, guid, "tasks");
    for (const entry of readDirOrEmpty(tasks)) {
      if (!entry.isSymlink || !entry.name.endsWith(".output")) continue;
      const link = join(tasks, entry.name);
      let target: string;
      try {
        target = Deno.readLinkSync(link);
      } catch {
        continue;
      }
      if (!target.startsWith(move.from)) continue;
      // Made beside, then renamed over: the link is never missing in between.
      const fresh = `${link}.claudecm.tmp-${Deno.pid}`;
      try {
        Deno.symlinkSync(move.to + target.slice(move.from.length), fresh);
        Deno.renameSync(fresh, link);
        count++;
      } catch {
        try {
          Deno.removeSync(fresh);
        } catch {
          // Never made.
        }
      }
    }
  }
  return count;
}
