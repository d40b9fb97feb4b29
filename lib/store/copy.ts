/**
 * Recursive copy of a file or directory tree, preserving modification times,
 * for moves that cannot be a rename and for P#'s copy to a new project
 * folder.
 *
 * The tree is copied under a temporary name beside `target` and renamed into
 * place only when complete, so a copy that fails halfway (a full disk, an
 * unreadable file) leaves no half tree at `target`: the callers take an
 * existing `target` for a finished copy and would not copy again. A copy
 * killed before its rename leaves the temporary name behind; the next copy
 * into that folder removes it (stale_temps.ts), as the orphan scan does.
 *
 * @module
 */

import { dirname, join } from "../core/path.ts";
import { removeDeadWritersTemps } from "./stale_temps.ts";

/** Copy `source` (file or directory) to `target`, which must not exist; all or nothing. */
export function copySync(source: string, target: string): void {
  removeDeadWritersTemps(dirname(target), { of: target });
  const partial = `${target}.partial-${Deno.pid}`;
  try {
    copyTree(source, partial);
    Deno.renameSync(partial, target);
  } catch (error) {
    removePartial(partial);
    throw error;
  }
}

function copyTree(source: string, target: string): void {
  const info = Deno.lstatSync(source);
  if (info.isDirectory) {
    Deno.mkdirSync(target);
    for (const entry of Deno.readDirSync(source)) {
      copyTree(join(source, entry.name), join(target, entry.name));
    }
  } else if (info.isSymlink) {
    Deno.symlinkSync(Deno.readLinkSync(source), target);
  } else {
    Deno.copyFileSync(source, target);
  }
  if (info.mtime && !info.isSymlink) Deno.utimeSync(target, info.atime ?? info.mtime, info.mtime);
}

/** Our own unfinished copy, never the user's files: the error that stopped it is what matters. */
function removePartial(partial: string): void {
  try {
    Deno.removeSync(partial, { recursive: true });
  } catch {
    // Nothing was created, or it cannot be removed either; the caller reports the copy's error.
  }
}
