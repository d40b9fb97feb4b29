/**
 * A session's vault entry as a whole: its transcript and every file of its
 * sidecar folder, at the same relative paths as in the project folder
 * (`<vault>/<project key>/<guid>.jsonl`, `<vault>/<project key>/<guid>/…`),
 * with the transcript's old generations beside it. Syncing, restoring and
 * removing an entry; which session's entry is where comes from
 * `lib/core/session_copies.ts`.
 *
 * @module
 */

import { dirname, join, relative } from "../core/path.ts";
import { infoOrNull, isNotFound, readDirOrEmpty } from "../core/fs_checks.ts";
import { equalBytes } from "../core/bytes.ts";
import type { SessionFiles } from "../core/session_copies.ts";
import { removeDeadWritersTempsOf } from "./stale_temps.ts";
import {
  generationPath,
  isGenerationName,
  MAX_GENERATIONS,
  sameInode,
  syncFileToVault,
  type VaultMode,
} from "./vault_file_sync.ts";

/** What syncing an entry did. */
export interface EntrySyncResult {
  /** "link" when every file is a hard link to its source. */
  mode: VaultMode;
  bytes: number;
  changed: boolean;
}

/**
 * Sync session files `source` into vault entry `vault`. Returns null when
 * the source transcript does not exist (nothing of the entry is dropped).
 */
export function syncVaultEntry(
  source: SessionFiles,
  vault: SessionFiles,
  options: {
    forceCopy: boolean;
    /** False when the caller knows there is no sidecar folder (a listing it already has). */
    sidecar?: boolean;
  },
): EntrySyncResult | null {
  const transcript = syncFileToVault(source.transcript, vault.transcript, options);
  if (transcript === null) return null;
  const result: EntrySyncResult = { ...transcript };
  const sidecarFiles = options.sidecar === false ? [] : filesUnder(source.sidecar);
  for (const file of sidecarFiles) {
    const synced = syncFileToVault(
      file,
      join(vault.sidecar, relative(source.sidecar, file)),
      options,
    );
    if (synced === null) continue;
    result.bytes += synced.bytes;
    result.changed ||= synced.changed;
    if (synced.mode === "copy") result.mode = "copy";
  }
  return result;
}

/** Every regular file under `dir`, recursively; none when it does not exist. */
export function filesUnder(dir: string): string[] {
  const files: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    if (isNotFound(error) || error instanceof Deno.errors.NotADirectory) return files;
    throw error;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...filesUnder(path));
    else if (entry.isFile) files.push(path);
  }
  return files;
}

/** The entry's files that exist: transcript, its generations, sidecar files. */
export function vaultEntryFiles(vault: SessionFiles): string[] {
  const files = [vault.transcript];
  for (let n = 1; n <= MAX_GENERATIONS; n++) files.push(generationPath(vault.transcript, n));
  return [...files.filter(exists), ...filesUnder(vault.sidecar)];
}

/** The bytes the entry's files hold, and the part no other link shares (what removal frees). */
export function vaultEntrySize(vault: SessionFiles): { bytes: number; freed: number } {
  let bytes = 0;
  let freed = 0;
  for (const file of vaultEntryFiles(vault)) {
    const info = Deno.statSync(file);
    bytes += info.size;
    if (info.nlink === null || info.nlink <= 1) freed += info.size;
  }
  return { bytes, freed };
}

/** How restoring went: the files put back, or the first file in the way. */
export type RestoreResult =
  | { status: "restored"; files: string[] }
  | { status: "conflict"; path: string };

/**
 * Put vault entry `vault` back at `target` (the project folder claude reads),
 * transcript and sidecar files, each as a hard link or else a copy (always a
 * copy with `copy`: copy mode's entry must not share the restored file's
 * bytes). Never overwrites: when a file that differs is already there,
 * nothing at all is written and that path is returned. Generations stay in
 * the vault.
 */
export function restoreVaultEntry(
  vault: SessionFiles,
  target: SessionFiles,
  options: {
    copy?: boolean;
    /** The person agreed: a symbolic link to nothing at the transcript's place is replaced. */
    replaceBrokenLink?: boolean;
  } = {},
): RestoreResult {
  const pairs: string[][] = [];
  for (const file of filesUnder(vault.sidecar)) {
    if (isGenerationName(file)) continue;
    pairs.push([file, join(target.sidecar, relative(vault.sidecar, file))]);
  }
  // The transcript last: a restore killed part way leaves it missing, so the next resume offers
  // the restore again and finishes it, instead of resuming a session with half its sidecar.
  pairs.push([vault.transcript, target.transcript]);
  const todo: string[][] = [];
  let brokenLink: string | null = null;
  for (const [from, to] of pairs) {
    let state = compareFiles(from, to);
    if (state === "differs" && options.replaceBrokenLink && to === target.transcript) {
      if (isLinkToNothing(to)) [state, brokenLink] = ["absent", to];
    }
    if (state === "differs") return { status: "conflict", path: to };
    if (state === "absent") todo.push([from, to]);
  }
  // A restore killed while it copied left `<file>.tmp-<pid>` beside each file it was putting back.
  for (const [, to] of pairs) removeDeadWritersTempsOf(to);
  for (const [from, to] of todo) {
    // Looked at again right before it goes: only a link that still leads nowhere is replaced.
    if (to === brokenLink && isLinkToNothing(to)) Deno.removeSync(to);
    placeWithoutOverwrite(from, to, options.copy === true);
  }
  return { status: "restored", files: todo.map(([, to]) => to) };
}

/**
 * Put back the files of vault sidecar folder `vaultSidecar` that are missing
 * from `target` (a sidecar another session's lines name: DESIGN.md decision
 * 24), never replacing a file that is there; its transcript stays in the
 * vault. Returns the files put back.
 */
export function restoreVaultSidecar(
  vaultSidecar: string,
  target: string,
  options: { copy?: boolean } = {},
): string[] {
  const placed: string[] = [];
  for (const file of filesUnder(vaultSidecar)) {
    if (isGenerationName(file)) continue;
    const to = join(target, relative(vaultSidecar, file));
    if (compareFiles(file, to) !== "absent") continue;
    removeDeadWritersTempsOf(to);
    placeWithoutOverwrite(file, to, options.copy === true);
    placed.push(to);
  }
  return placed;
}

/** Whether `path` is a symbolic link whose target is not there. */
function isLinkToNothing(path: string): boolean {
  if (infoOrNull(path, { links: "self" })?.isSymlink !== true) return false;
  try {
    Deno.statSync(path);
    return false;
  } catch (error) {
    return isNotFound(error);
  }
}

function compareFiles(from: string, to: string): "absent" | "same" | "differs" {
  const there = infoOrNull(to, { links: "self" });
  if (there === null) return "absent";
  if (!there.isFile) return "differs";
  const ours = Deno.statSync(from);
  if (sameInode(ours, there)) return "same";
  if (ours.size !== there.size) return "differs";
  return equalBytes(Deno.readFileSync(from), Deno.readFileSync(to)) ? "same" : "differs";
}

/**
 * A link (which fails rather than replace) or, where links fail or `copy`
 * asks, a copy put in place under its temporary name without replacing.
 */
function placeWithoutOverwrite(vaultFile: string, to: string, copy: boolean): void {
  // A symlink left in the vault by an older sync: what is put back is the file, never the link.
  const from = Deno.realPathSync(vaultFile);
  Deno.mkdirSync(dirname(to), { recursive: true });
  if (!copy) {
    try {
      Deno.linkSync(from, to);
      return;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) throw error;
    }
  }
  const tmp = `${to}.tmp-${Deno.pid}`;
  try {
    Deno.copyFileSync(from, tmp);
    try {
      // A link of the copy's own name fails rather than replace what appeared meanwhile.
      Deno.linkSync(tmp, to);
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) throw error;
      if (exists(to)) throw new Deno.errors.AlreadyExists(`${to} appeared while restoring`);
      Deno.renameSync(tmp, to);
    }
  } finally {
    if (exists(tmp)) Deno.removeSync(tmp);
  }
}

/** Remove the entry: transcript, generations, sidecar folder (unless `keepSidecar`). */
export function removeVaultEntry(
  vault: SessionFiles,
  { keepSidecar = false }: { keepSidecar?: boolean } = {},
): void {
  const files = [vault.transcript];
  for (let n = 1; n <= MAX_GENERATIONS; n++) files.push(generationPath(vault.transcript, n));
  for (const file of files.filter(exists)) Deno.removeSync(file);
  if (!keepSidecar && exists(vault.sidecar)) Deno.removeSync(vault.sidecar, { recursive: true });
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** Every folder under `dir`, `dir` included (for sweeps of the whole vault). */
export function foldersUnder(dir: string): string[] {
  const folders = [dir];
  for (const entry of readDirOrEmpty(dir)) {
    if (entry.isDirectory) folders.push(...foldersUnder(join(dir, entry.name)));
  }
  return folders;
}
