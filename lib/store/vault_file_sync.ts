/**
 * One file of the vault kept in step with its source: a hard link where the
 * file system allows one (it follows Claude Code's in-place appends for free
 * and survives its deletes), else a verified incremental copy. Every write
 * lands under a temporary name and is renamed into place, so a kill at any
 * moment leaves the old vault file or the new one, never half of one.
 *
 * A source replaced by a new inode (a rewrite) whose content no longer
 * starts with the vault's content keeps the vault's content as a numbered
 * generation beside it (`<name>.gen1<ext>`, newest first, at most 3), once
 * its successor is written whole: a sync that fails (a full disk) shifts no
 * generation out.
 *
 * @module
 */

import { basename, dirname, extname, join } from "../core/path.ts";
import { infoOrNull, isNotFound } from "../core/fs_checks.ts";

/** How a vault file holds its data: the source's own inode, or its own bytes. */
export type VaultMode = "link" | "copy";

/** What syncing one file did. */
export interface FileSyncResult {
  mode: VaultMode;
  /** The vault file's size after the sync. */
  bytes: number;
  /** Whether anything was written. */
  changed: boolean;
}

/** How many replaced versions of a file are kept. */
export const MAX_GENERATIONS = 3;

/** A generation's file name: `<guid>.gen1.jsonl` for `<guid>.jsonl`. */
export function generationPath(target: string, n: number): string {
  const ext = extname(target);
  const stem = basename(target).slice(0, basename(target).length - ext.length);
  return join(dirname(target), `${stem}.gen${n}${ext}`);
}

/** Whether a file name is a generation that {@linkcode generationPath} made. */
export function isGenerationName(name: string): boolean {
  return /\.gen[1-9]\d*(\.[^.]*)?$/.test(name);
}

/** Whether two stats are one file (one inode on one device). */
export function sameInode(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return a.ino !== null && a.ino === b.ino && a.dev === b.dev;
}

/**
 * Bring the vault file `target` up to date with `source`. Returns null when
 * the source does not exist, or went while it was synced (another window's
 * D#): the vault keeps what it has. With `forceCopy` (`CLAUDECM_VAULT=copy`)
 * no link is made, and a file linked before is turned into a copy.
 */
export function syncFileToVault(
  source: string,
  target: string,
  options: { forceCopy: boolean },
): FileSyncResult | null {
  try {
    return syncExisting(source, target, options);
  } catch (error) {
    if (isNotFound(error) && infoOrNull(source) === null) return null;
    throw error;
  }
}

function syncExisting(
  source: string,
  target: string,
  options: { forceCopy: boolean },
): FileSyncResult | null {
  const src = infoOrNull(source);
  if (src === null || !src.isFile) return null;
  // A transcript that is a symlink (moved to another disk by hand): the vault keeps the file it
  // leads to. A hard link to the symlink itself would keep only a path, gone with its target.
  const from = Deno.lstatSync(source).isSymlink ? Deno.realPathSync(source) : source;
  const held = infoOrNull(target, { links: "self" });
  // A symlink in the vault (made so before the line above) holds no bytes: it is replaced whole.
  const dst = held?.isSymlink ? null : held;
  if (dst !== null && sameInode(src, dst)) {
    if (!options.forceCopy) return { mode: "link", bytes: dst.size, changed: false };
    // Copy mode turns an entry linked before it was on into bytes of its own: until then a
    // transcript cut short or rewritten in place takes the vault's entry with it.
    return unlink(from, target);
  }
  if (held === null) Deno.mkdirSync(dirname(target), { recursive: true });
  const linked = options.forceCopy ? null : linkToTemp(from, target);
  if (linked !== null) {
    // A replaced source, or a copy from when links failed: its content is checked, not assumed.
    const replaced = dst !== null && !isPrefixOf(target, from, dst.size);
    finishInto(linked, target, { replaced });
    return { mode: "link", bytes: src.size, changed: true };
  }
  if (dst !== null && unchangedCopy(src, dst)) {
    return { mode: "copy", bytes: dst.size, changed: false };
  }
  const prefix = dst !== null && isPrefixOf(target, from, dst.size);
  const tmp = prefix ? appendCopy(from, target, dst!.size) : wholeCopy(from, target);
  const bytes = Deno.statSync(tmp).size;
  finishInto(tmp, target, { replaced: dst !== null && !prefix });
  return { mode: "copy", bytes, changed: true };
}

/**
 * Replace the vault's hard link `target` to `source` by a copy: copied under
 * a temporary name, checked against the source byte for byte, renamed over
 * the link. A kill at any moment leaves the link or the copy.
 */
function unlink(source: string, target: string): FileSyncResult {
  const tmp = wholeCopy(source, target);
  const bytes = Deno.statSync(tmp).size;
  // Claude may append meanwhile: the copy must be the start of the source, whole.
  if (!isPrefixOf(tmp, source, bytes)) {
    dropTemp(tmp);
    throw new Error(`${source} changed while it was copied into the vault; it stays a hard link`);
  }
  renameOrDrop(tmp, target);
  return { mode: "copy", bytes, changed: true };
}

/** Rename the whole new version `tmp` over `target`, keeping the old one first when `replaced`. */
function finishInto(tmp: string, target: string, { replaced }: { replaced: boolean }): void {
  try {
    if (replaced) keepGeneration(target);
  } catch (error) {
    dropTemp(tmp);
    throw error;
  }
  renameOrDrop(tmp, target);
}

/** A copy the last sync finished: same size, and the source's mtime that it was given. */
function unchangedCopy(src: Deno.FileInfo, dst: Deno.FileInfo): boolean {
  return src.size === dst.size && src.mtime?.getTime() === dst.mtime?.getTime();
}

/** A hard link to `source` under `target`'s temporary name; null where links cannot be made. */
function linkToTemp(source: string, target: string): string | null {
  const tmp = tempName(target);
  try {
    Deno.linkSync(source, tmp);
    return tmp;
  } catch {
    // Another file system or volume, FAT/exFAT, a refused link: the caller copies.
    return null;
  }
}

/** The whole source, copied under a temporary name; returns that name. */
function wholeCopy(source: string, target: string): string {
  const tmp = tempName(target);
  try {
    const mtime = Deno.statSync(source).mtime;
    Deno.copyFileSync(source, tmp);
    markFinished(tmp, mtime);
    return tmp;
  } catch (error) {
    dropTemp(tmp);
    throw error;
  }
}

/**
 * The vault's verified first `from` bytes plus only the source's bytes after
 * them, under a temporary name; returns that name. Exactly `from` bytes of
 * the vault file are kept: it may have grown since it was checked.
 */
function appendCopy(source: string, target: string, from: number): string {
  const tmp = tempName(target);
  try {
    const mtime = Deno.statSync(source).mtime;
    Deno.copyFileSync(target, tmp);
    Deno.truncateSync(tmp, from);
    const input = Deno.openSync(source, { read: true });
    const output = Deno.openSync(tmp, { write: true, append: true });
    try {
      input.seekSync(from, Deno.SeekMode.Start);
      const buffer = new Uint8Array(64 * 1024);
      for (let n = input.readSync(buffer); n !== null; n = input.readSync(buffer)) {
        writeAll(output, buffer.subarray(0, n));
      }
      output.syncSync();
    } finally {
      input.close();
      output.close();
    }
    markFinished(tmp, mtime);
    return tmp;
  } catch (error) {
    dropTemp(tmp);
    throw error;
  }
}

/** The source's mtime marks the copy as finished for that version (unchangedCopy). */
function markFinished(tmp: string, mtime: Date | null): void {
  if (mtime !== null) Deno.utimeSync(tmp, mtime, mtime);
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
}

/** Whether the first `length` bytes of `a` are the first `length` bytes of `b`. */
function isPrefixOf(a: string, b: string, length: number): boolean {
  const fileA = Deno.openSync(a, { read: true });
  const fileB = Deno.openSync(b, { read: true });
  try {
    const bufA = new Uint8Array(64 * 1024);
    const bufB = new Uint8Array(64 * 1024);
    let left = length;
    while (left > 0) {
      const want = Math.min(left, bufA.length);
      if (
        !readExactly(fileA, bufA.subarray(0, want)) || !readExactly(fileB, bufB.subarray(0, want))
      ) {
        return false;
      }
      for (let i = 0; i < want; i++) if (bufA[i] !== bufB[i]) return false;
      left -= want;
    }
    return true;
  } finally {
    fileA.close();
    fileB.close();
  }
}

function readExactly(file: Deno.FsFile, into: Uint8Array): boolean {
  let got = 0;
  while (got < into.length) {
    const n = file.readSync(into.subarray(got));
    if (n === null) return false;
    got += n;
  }
  return true;
}

/**
 * Keep the vault's current `target` as generation 1, shifting older ones up
 * and dropping what falls past the last. The new generation is made under a
 * temporary name before anything shifts, so a full disk drops no older one;
 * `target` stays in place (a second link), so a kill here leaves it whole.
 * Only the generations below the first free slot shift: a sync killed
 * between its shifts leaves a slot free, and shifting past it would write
 * one kept version over another.
 */
function keepGeneration(target: string): void {
  const first = generationPath(target, 1);
  const tmp = tempName(first);
  try {
    Deno.linkSync(target, tmp);
  } catch {
    try {
      Deno.copyFileSync(target, tmp);
    } catch (error) {
      dropTemp(tmp);
      throw error;
    }
  }
  let free = 1;
  while (free < MAX_GENERATIONS && infoOrNull(generationPath(target, free), { links: "self" })) {
    free++;
  }
  for (let n = free - 1; n >= 1; n--) {
    try {
      Deno.renameSync(generationPath(target, n), generationPath(target, n + 1));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  renameOrDrop(tmp, first);
}

function tempName(target: string): string {
  // writeFileAtomic's naming, so stale_temps.ts knows a dead writer's leftovers.
  return `${target}.tmp-${Deno.pid}`;
}

function renameOrDrop(tmp: string, target: string): void {
  try {
    Deno.renameSync(tmp, target);
  } catch (error) {
    dropTemp(tmp);
    throw error;
  }
}

function dropTemp(tmp: string): void {
  try {
    Deno.removeSync(tmp);
  } catch {
    // Never created; the caller reports the error that stopped it.
  }
}
