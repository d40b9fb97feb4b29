/**
 * Timestamped copies into `~/.claudecm/backup/` (spec 5.0 and 4): the
 * registry on every launch, settings.json before claudecm edits it.
 *
 * @module
 */

import type { Paths } from "../core/paths.ts";
import { formatStamp } from "../core/format.ts";

/** How many registry backups to keep. */
const REGISTRY_BACKUPS_KEPT = 20;

/**
 * Copy sessions.txt to `backup/sessions.txt.<stamp>` and prune all but the
 * newest 20. Best effort: a failure here never stops claudecm; it is returned
 * (null when all went well) so the caller can tell a disk that refuses writes.
 */
export function backupRegistry(paths: Paths, now: Date): unknown {
  try {
    Deno.mkdirSync(paths.backupDir, { recursive: true });
    Deno.copyFileSync(
      paths.registryFile,
      paths.path.join(paths.backupDir, `sessions.txt.${formatStamp(now)}`),
    );
    pruneBackups(paths, "sessions.txt.", REGISTRY_BACKUPS_KEPT);
    return null;
  } catch (error) {
    // Spec 5.0: best-effort and silent.
    return error;
  }
}

/** Copy settings.json to `backup/settings.json.<stamp>`; returns the copy's path. */
export function backupSettings(paths: Paths, now: Date): string {
  Deno.mkdirSync(paths.backupDir, { recursive: true });
  const target = paths.path.join(paths.backupDir, `settings.json.${formatStamp(now)}`);
  Deno.copyFileSync(paths.settingsFile, target);
  return target;
}

function pruneBackups(paths: Paths, prefix: string, keep: number): void {
  const stamped = /^\d{8}-\d{6}$/;
  const names = [...Deno.readDirSync(paths.backupDir)]
    .filter((entry) => entry.isFile && entry.name.startsWith(prefix))
    .map((entry) => entry.name)
    .filter((name) => stamped.test(name.slice(prefix.length)))
    .sort();
  for (const name of names.slice(0, Math.max(0, names.length - keep))) {
    Deno.removeSync(paths.path.join(paths.backupDir, name));
  }
}
