/**
 * doctor's leftovers check (issue 30 item 15): the temporary files of
 * claudecm runs that were killed before they renamed them into place
 * (`<name>.tmp-<pid>`, `<name>.partial-<pid>`), with their size. Each writer
 * removes its own on its next run; doctor, which writes nothing, names the
 * rest so a person can see what a killed restore or sync left behind.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { AddFinding, CheckStatus } from "./doctor_model.ts";
import { formatSize } from "../../core/format.ts";
import { subdirectoryNames } from "../../core/fs_checks.ts";
import { isSessionId } from "../../core/registry.ts";
import { findDeadWritersTemps, PROJECT_TEMPS, type StaleTemp } from "../../store/stale_temps.ts";
import { foldersUnder } from "../../store/vault_entry.ts";
import { historyFileOf } from "../../store/history_store.ts";
import { realTarget } from "../../store/atomic_write.ts";

/** The leftovers doctor found. */
export interface TempFilesCheck {
  status: CheckStatus;
  files: StaleTemp[];
  /** Their bytes added up. */
  bytes: number;
}

/** Find what killed claudecm runs left in the places claudecm writes; reads only. */
export function checkTempFiles(ctx: AppContext, add: AddFinding): Omit<TempFilesCheck, "status"> {
  const { paths } = ctx;
  const { join } = paths.path;
  const files: StaleTemp[] = [
    // claudecm's own folders: every temporary name there is claudecm's.
    ...[paths.cmHome, paths.backupDir, paths.resumingDir, ...foldersUnder(paths.vaultDir)]
      .flatMap((folder) => findDeadWritersTemps(folder)),
    // claude's files claudecm rewrites (a move's prompt history: history_store.ts), each beside
    // the file a link leads to, as writeFileAtomic makes its copy.
    ...[paths.settingsFile, historyFileOf(paths), paths.claudeJsonFile].map(realTarget)
      .flatMap((file) => findDeadWritersTemps(paths.path.dirname(file), { of: file })),
  ];
  for (const key of subdirectoryNames(paths.projectsDir)) {
    const folder = join(paths.projectsDir, key);
    // A restore's and a P#'s copies beside the transcripts, and inside their sidecar folders.
    files.push(...findDeadWritersTemps(folder, PROJECT_TEMPS));
    for (const sidecar of subdirectoryNames(folder).filter(isSessionId)) {
      for (const inner of foldersUnder(join(folder, sidecar))) {
        files.push(...findDeadWritersTemps(inner));
      }
    }
  }
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  if (files.length > 0) {
    add(
      "warning",
      `${files.length} temporary file(s) of killed claudecm runs take ${formatSize(bytes)}: ` +
        "the next run of what wrote each removes it (or delete them)",
    );
  }
  return { files, bytes };
}
