/**
 * Whole-file writes that a crash cannot leave half done: write a temporary
 * file beside the target, flush it to disk, rename it over the target, then
 * flush the directory so the rename itself survives a power loss.
 *
 * @module
 */

import { dirname, isAbsolute, join } from "../core/path.ts";
import { UserError, withPath } from "../core/errors.ts";
import { removeDeadWritersTempsOf } from "./stale_temps.ts";
import { retryWhileBusy } from "./windows_busy.ts";
import { hostOs } from "../platform/os.ts";

/** Options for {@linkcode writeFileAtomic}. */
export interface AtomicWriteOptions {
  /**
   * Appended to the real target's path to name the temporary file; defaults
   * to `.tmp-<pid>`. Only a suffix can be chosen: the temporary file must sit
   * beside the real target, or the rename would cross file systems.
   */
  tmpSuffix?: string;
  /**
   * Asked once the temporary file is on disk, right before the rename: false
   * leaves the target as it is (the temporary file is removed) and makes
   * {@linkcode writeFileAtomic} return false. A compare-and-swap for a writer
   * that must not replace content it has not seen.
   */
  beforeRename?: () => boolean;
  /** Take the permission bits of this file, not the target's (a backup keeps its source's). */
  modeOf?: string;
}

/**
 * Replace `path` with `content` atomically. Readers see the old file or the
 * new one, never a mix. A symlinked target (dotfile managers link
 * settings.json or sessions.txt, often into another file system) is written
 * through the link, which stays a link, and an existing file keeps its
 * permission bits. On failure the temporary file is removed and the target is
 * untouched. Returns whether the file was replaced (false only when
 * `beforeRename` said no).
 */
export function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): boolean {
  const target = realTarget(path);
  const tmpPath = target + (options.tmpSuffix ?? `.tmp-${Deno.pid}`);
  // What a killed writer of this file left under the same kind of name goes first (issue 30
  // item 15); a caller that names its own temporary file sweeps its own.
  if (options.tmpSuffix === undefined) removeDeadWritersTempsOf(target);
  try {
    const file = Deno.openSync(tmpPath, { write: true, create: true, truncate: true });
    try {
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      let written = 0;
      while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
      file.syncSync();
    } finally {
      file.close();
    }
    keepMode(options.modeOf ?? target, tmpPath);
    if (options.beforeRename?.() === false) {
      Deno.removeSync(tmpPath);
      return false;
    }
    retryWhileBusy(() => Deno.renameSync(tmpPath, target));
  } catch (error) {
    // A folder where the temporary file goes is named itself: each OS words that failure
    // differently (EISDIR; "access denied" on Windows; "invalid parameter" under wine).
    if (dropTempFile(tmpPath)) {
      throw new UserError(`${tmpPath} is a folder where claudecm needs a file; move it away`);
    }
    // Whatever else failed (a full disk, a permission), the user knows the file by its real name.
    throw withPath(error, target);
  }
  // The rename lives in the directory: until it is on disk, a power loss can undo it.
  syncDirectory(dirname(target));
  return true;
}

/** Remove the temporary file when there is one; returns whether a folder stands in its place. */
function dropTempFile(tmpPath: string): boolean {
  try {
    if (Deno.lstatSync(tmpPath).isDirectory) return true;
    Deno.removeSync(tmpPath);
  } catch {
    // The temporary file was never created or is already gone.
  }
  return false;
}

function syncDirectory(dir: string): void {
  // Windows cannot open a directory as a file; NTFS journals the rename itself.
  if (hostOs === "windows") return;
  try {
    const handle = Deno.openSync(dir, { read: true });
    try {
      handle.syncSync();
    } finally {
      handle.close();
    }
  } catch {
    // The file is written and renamed; a file system that cannot sync a directory has no more to give.
  }
}

/**
 * The file a write to `path` lands in: through its links. A link to nothing
 * yet (a dotfile manager's link whose target is not made) leads to that
 * target, which the write creates, so the link stays a link.
 */
export function realTarget(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    let at = path;
    for (let hops = 0; hops < 40; hops++) {
      try {
        if (!Deno.lstatSync(at).isSymlink) return at;
        const link = Deno.readLinkSync(at);
        // A relative link is relative to the folder it really sits in (which may be a link too).
        at = isAbsolute(link) ? link : join(Deno.realPathSync(dirname(at)), link);
      } catch {
        return at;
      }
    }
    return path;
  }
}

function keepMode(source: string, tmpPath: string): void {
  if (hostOs === "windows") return;
  try {
    const mode = Deno.statSync(source).mode;
    if (mode !== null) Deno.chmodSync(tmpPath, mode & 0o7777);
  } catch {
    // A new file takes the default mode.
  }
}
