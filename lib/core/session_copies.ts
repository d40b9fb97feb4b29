/**
 * Where one session's files are: the one answer for every flow that moves,
 * deletes, protects or restores a session (P#, D#, quarantine, the vault,
 * `move`, restore). A session is its transcript `<guid>.jsonl` plus an
 * optional sidecar folder `<guid>/` (subagents, tool results) beside it.
 *
 * `sessionFilesIn` names the files in one folder; `sessionFilesFor` names
 * them where claude reads them for a registered DIR; `vaultFilesFor` names
 * the vault's copy; `findSessionCopies` finds every copy of a session under
 * the projects root (a lookup by id, so it does not cross spec 14 rule 2),
 * and `findVaultEntries` every entry of a session in the vault: a row's
 * folder may have changed since its entry was made (P#, a `/cd`, a folder
 * turned into a link), and an entry is the session's wherever it sits.
 *
 * @module
 */

import {
  isPresent,
  probePath,
  readDirIfPresent,
  readDirOrEmpty,
  subdirectoryNames,
} from "./fs_checks.ts";
import { UserError } from "./errors.ts";
import { type Paths, projectDirFor, projectFolderName } from "./paths.ts";

/** One session's files in one folder. */
export interface SessionFiles {
  /** The folder holding them: a project folder, or a vault key folder. */
  folder: string;
  /** `<folder>/<guid>.jsonl`. */
  transcript: string;
  /** `<folder>/<guid>/`; it may not exist. */
  sidecar: string;
}

/** A copy of a session found on disk. */
export interface SessionCopy extends SessionFiles {
  /** The transcript's stat (size, mtime, ino). */
  info: Deno.FileInfo;
}

/** Session `guid`'s files in `folder`. */
export function sessionFilesIn(paths: Paths, folder: string, guid: string): SessionFiles {
  return {
    folder,
    transcript: paths.path.join(folder, `${guid}.jsonl`),
    sidecar: paths.path.join(folder, guid),
  };
}

/** Session `guid`'s files where claude reads them when started in `dir`. */
export function sessionFilesFor(
  paths: Paths,
  session: { guid: string; dir: string },
): SessionFiles {
  return sessionFilesIn(paths, projectDirFor(paths, session.dir), session.guid);
}

/** The vault folder for `dir`: `<vaultDir>/<project folder name>`, as under the projects root. */
export function vaultFolderFor(paths: Paths, dir: string): string {
  return paths.path.join(paths.vaultDir, projectFolderName(paths, dir));
}

/** Session `guid`'s files in the vault, for a session registered in `dir`. */
export function vaultFilesFor(paths: Paths, session: { guid: string; dir: string }): SessionFiles {
  return sessionFilesIn(paths, vaultFolderFor(paths, session.dir), session.guid);
}

/**
 * Every copy of session `guid`'s transcript under the projects root, one per
 * project folder that holds `<guid>.jsonl` as a regular file, in folder-name
 * order. Folders that cannot be listed are skipped: callers that decide
 * "missing" use `locateTranscript`, which reports them.
 */
export function findSessionCopies(paths: Paths, guid: string): SessionCopy[] {
  const copies: SessionCopy[] = [];
  for (const name of subdirectoryNames(paths.projectsDir)) {
    const files = sessionFilesIn(paths, paths.path.join(paths.projectsDir, name), guid);
    try {
      const info = Deno.statSync(files.transcript);
      if (info.isFile) copies.push({ ...files, info });
    } catch {
      // Not in this folder, or not readable here.
    }
  }
  return copies;
}

/**
 * Every vault entry of session `guid` (a transcript or a sidecar folder in a
 * vault key folder), in key folder order.
 */
export function findVaultEntries(paths: Paths, guid: string): SessionFiles[] {
  // A vault that cannot be read throws: "no entry" would let a D# or a missing transcript's
  // offer to delete go ahead (DESIGN.md 5.11).
  return readDirIfPresent(paths.vaultDir).filter((entry) => entry.isDirectory)
    .map((entry) => entry.name).sort()
    .map((name) => sessionFilesIn(paths, paths.path.join(paths.vaultDir, name), guid))
    .filter((files) => isPresent(files.transcript) || isPresent(files.sidecar));
}

/**
 * What P#, a fork and a trim set aside of session `guid` in the backup folder
 * (`backup/<leaf>/<guid>.jsonl` and its sidecar, numbered `.1`, `.2`... when
 * the name was taken; store/move_aside.ts): the paths there now.
 */
export function findBackupCopies(paths: Paths, guid: string): string[] {
  const ours = new RegExp(`^${guid}(\\.jsonl)?(\\.\\d+)?$`);
  return subdirectoryNames(paths.backupDir).flatMap((leaf) => {
    const folder = paths.path.join(paths.backupDir, leaf);
    return readDirOrEmpty(folder).filter((entry) => ours.test(entry.name))
      .map((entry) => paths.path.join(folder, entry.name)).sort();
  });
}

/**
 * The vault entry to restore `session` from: the one for its registered
 * folder when it holds a transcript, else one elsewhere that does; null when
 * the vault has no transcript of it.
 */
export function vaultEntryFor(
  paths: Paths,
  session: { guid: string; dir: string },
): SessionFiles | null {
  const own = vaultFilesFor(paths, session);
  if (holdsTranscript(own)) return own;
  return findVaultEntries(paths, session.guid).find(holdsTranscript) ?? null;
}

/**
 * Whether a vault entry holds a transcript to restore: a file (a link to one
 * that is gone holds nothing); a vault that cannot be looked in is an error.
 */
function holdsTranscript(files: SessionFiles): boolean {
  const probe = probePath(files.transcript);
  if (probe.kind === "unreadable") {
    throw new UserError(`the vault cannot be read: ${probe.error}: ${files.transcript}`);
  }
  return probe.kind === "file";
}
