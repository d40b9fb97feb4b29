/**
 * Yes-or-no questions about paths, answered without throwing: a path that
 * cannot be looked at counts as not there.
 *
 * @module
 */

/** Whether `path` is a regular file (symlinks followed). */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Whether `path` is a directory (symlinks followed). */
export function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** Whether anything, even a dangling symlink, stands at `path`. */
export function pathExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
