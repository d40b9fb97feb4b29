/**
 * Moving a session's files, a project's `memory/` or a vault entry to where
 * another folder's key puts them (`claudecm move`): by renames, never by
 * copy and delete, so a move killed at any point leaves every file whole in
 * one place or the other, and running it again finishes it.
 *
 * A target that already exists is merged into: an identical file is
 * replaced by its source (nothing is lost), a folder is merged entry by
 * entry, and a file that differs stops the move before it is touched.
 *
 * @module
 */

import { infoOrNull, isNotFound } from "../core/fs_checks.ts";
import { dirname, join } from "../core/path.ts";

/** A target file that differs from the file that would replace it. */
export class MergeConflictError extends Error {
  readonly source: string;
  readonly target: string;
  constructor(source: string, target: string) {
    super(`${target} already exists and differs from ${source}`);
    this.name = "MergeConflictError";
    this.source = source;
    this.target = target;
  }
}

/**
 * The first place where moving `source` onto `target` would replace
 * something different (a differing file, a file where a folder is), as
 * `[source, target]`; null when the move can lose nothing.
 */
export function mergeConflict(source: string, target: string): [string, string] | null {
  const from = Deno.lstatSync(source);
  const to = infoOrNull(target, { links: "self" });
  if (to === null) return null;
  if (from.isDirectory !== to.isDirectory) return [source, target];
  if (!from.isDirectory) return sameContent(source, target) ? null : [source, target];
  for (const entry of Deno.readDirSync(source)) {
    const conflict = mergeConflict(join(source, entry.name), join(target, entry.name));
    if (conflict !== null) return conflict;
  }
  return null;
}

/**
 * Move `source` to `target` by renames, merging into an existing target
 * (see the module doc). Source folders left empty are removed. Throws
 * {@linkcode MergeConflictError} at a differing file, leaving it and
 * everything not yet moved where it was.
 */
export function mergeMove(source: string, target: string): void {
  const from = infoOrNull(source, { links: "self" });
  // Gone since it was listed: another run moved it (a second `move` at once), nothing is left here.
  if (from === null) return;
  const to = infoOrNull(target, { links: "self" });
  if (to === null) {
    Deno.mkdirSync(dirname(target), { recursive: true });
    renameUnlessGone(source, target);
    return;
  }
  if (from.isDirectory && to.isDirectory) {
    for (const entry of [...Deno.readDirSync(source)]) {
      mergeMove(join(source, entry.name), join(target, entry.name));
    }
    removeIfEmpty(source);
    return;
  }
  if (from.isDirectory || to.isDirectory || !sameContent(source, target)) {
    throw new MergeConflictError(source, target);
  }
  // Identical bytes: the rename replaces the target atomically and leaves one copy.
  renameUnlessGone(source, target);
}

/** Rename `source` to `target`; a source another run moved away meanwhile has nothing to move. */
function renameUnlessGone(source: string, target: string): void {
  try {
    Deno.renameSync(source, target);
  } catch (error) {
    if (!isNotFound(error) || infoOrNull(source, { links: "self" }) !== null) throw error;
  }
}

/** Remove `folder` if it is empty; anything in it stays. */
export function removeIfEmpty(folder: string): boolean {
  try {
    Deno.removeSync(folder);
    return true;
  } catch {
    return false;
  }
}

/** Whether two files (or two symlinks) have the same content. */
function sameContent(a: string, b: string): boolean {
  const infoA = Deno.lstatSync(a);
  const infoB = Deno.lstatSync(b);
  if (infoA.isSymlink || infoB.isSymlink) {
    return infoA.isSymlink && infoB.isSymlink && Deno.readLinkSync(a) === Deno.readLinkSync(b);
  }
  if (infoA.size !== infoB.size) return false;
  const fileA = Deno.openSync(a, { read: true });
  const fileB = Deno.openSync(b, { read: true });
  try {
    const bufferA = new Uint8Array(1 << 20);
    const bufferB = new Uint8Array(1 << 20);
    while (true) {
      const readA = fileA.readSync(bufferA);
      if (readA === null) return fileB.readSync(bufferB) === null;
      const readB = readFull(fileB, bufferB.subarray(0, readA));
      if (readB !== readA) return false;
      for (let i = 0; i < readA; i++) if (bufferA[i] !== bufferB[i]) return false;
    }
  } finally {
    fileA.close();
    fileB.close();
  }
}

function readFull(file: Deno.FsFile, buffer: Uint8Array): number {
  let filled = 0;
  while (filled < buffer.length) {
    const read = file.readSync(buffer.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return filled;
}
