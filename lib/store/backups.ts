/**
 * Timestamped copies into `~/.claudecm/backup/` (spec 5.0 and 4): the
 * registry on every launch, settings.json before claudecm edits it.
 *
 * A backup is written under a temporary name, read back and compared, and
 * only then renamed to its stamped name, so a stamped name always holds a
 * complete copy: a full disk leaves no empty backup that would count
 * towards the 20 kept and push out good ones.
 *
 * @module
 */

import { equalBytes } from "../core/bytes.ts";
import { readRegularBytes, SETTINGS_MAX_BYTES } from "../core/fs_checks.ts";
import type { Paths } from "../core/paths.ts";
import { readRegistryBytes } from "./registry_store.ts";
import { formatStamp } from "../core/format.ts";
import { writeFileAtomic } from "./atomic_write.ts";
import { removeDeadWritersTemps } from "./stale_temps.ts";

/** How many registry backups to keep. */
const REGISTRY_BACKUPS_KEPT = 20;

const REGISTRY_PREFIX = "sessions.txt.";
const STAMP = /^\d{8}-\d{6}$/;

/**
 * Copy sessions.txt to `backup/sessions.txt.<stamp>` unless the newest backup
 * already holds the same bytes (or the registry is empty: nothing to
 * restore), then prune all but the newest 20. Best effort: a failure here
 * never stops claudecm; it is returned (null when all went well) so the
 * caller can tell a disk that refuses writes.
 */
export function backupRegistry(paths: Paths, now: Date): unknown {
  try {
    Deno.mkdirSync(paths.backupDir, { recursive: true });
    removeDeadWritersTemps(paths.backupDir);
    const current = readRegistryBytes(paths);
    const newest = registryBackups(paths).at(-1);
    let written: string | undefined;
    if (current.length > 0 && (newest === undefined || !equalBytes(readFile(newest), current))) {
      written = paths.path.join(paths.backupDir, `${REGISTRY_PREFIX}${formatStamp(now)}`);
      writeBackup(written, current, paths.registryFile);
    }
    pruneRegistryBackups(paths, written);
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
  // As private as the file itself: settings.json may hold API keys (`env`).
  const settings = readRegularBytes(paths.settingsFile, SETTINGS_MAX_BYTES);
  writeBackup(target, settings, paths.settingsFile);
  return target;
}

/** Write `content` to a temporary name, check it, rename it to `target`; throws when it cannot. */
function writeBackup(target: string, content: Uint8Array, source: string): void {
  const tmpSuffix = `.tmp-${Deno.pid}`;
  const written = writeFileAtomic(target, content, {
    tmpSuffix,
    modeOf: source,
    beforeRename: () => equalBytes(readFile(target + tmpSuffix), content),
  });
  if (!written) throw new Error(`the backup did not read back as written: ${target}`);
}

/**
 * The registry's complete backups, oldest first, as paths. An empty one is
 * what an older claudecm left on a full disk: it restores nothing and is
 * removed, so it never takes the place of a good one.
 */
function registryBackups(paths: Paths): string[] {
  const complete: { path: string; writtenMs: number }[] = [];
  const names = [...Deno.readDirSync(paths.backupDir)]
    .filter((entry) => entry.isFile && entry.name.startsWith(REGISTRY_PREFIX))
    .map((entry) => entry.name)
    .filter((name) => STAMP.test(name.slice(REGISTRY_PREFIX.length)))
    .sort();
  for (const name of names) {
    const path = paths.path.join(paths.backupDir, name);
    const info = Deno.statSync(path);
    if (info.size > 0) complete.push({ path, writtenMs: info.mtime?.getTime() ?? 0 });
    else Deno.removeSync(path);
  }
  // By when each was written, as the old scripts pruned: a clock that went back (a time zone
  // crossed) stamps a new backup before the old ones, and by name it was pruned at once.
  return complete.sort((a, b) => a.writtenMs - b.writtenMs).map((backup) => backup.path);
}

/** Keep the newest backups; the one just `written` always, whatever the clock said of the others. */
function pruneRegistryBackups(paths: Paths, written: string | undefined): void {
  const complete = registryBackups(paths).filter((path) => path !== written);
  const others = written === undefined ? REGISTRY_BACKUPS_KEPT : REGISTRY_BACKUPS_KEPT - 1;
  for (const path of complete.slice(0, Math.max(0, complete.length - others))) {
    Deno.removeSync(path);
  }
}

function readFile(path: string): Uint8Array | null {
  try {
    return Deno.readFileSync(path);
  } catch {
    return null;
  }
}
