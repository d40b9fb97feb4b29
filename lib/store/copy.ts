/**
 * Recursive copy of a file or directory tree, preserving modification times,
 * for moves that cannot be a rename.
 *
 * @module
 */

/** Copy `source` (file or directory) to `target`, which must not exist. */
export function copySync(source: string, target: string): void {
  const info = Deno.lstatSync(source);
  if (info.isDirectory) {
    Deno.mkdirSync(target);
    for (const entry of Deno.readDirSync(source)) {
      copySync(`${source}/${entry.name}`, `${target}/${entry.name}`);
    }
  } else if (info.isSymlink) {
    Deno.symlinkSync(Deno.readLinkSync(source), target);
  } else {
    Deno.copyFileSync(source, target);
  }
  if (info.mtime && !info.isSymlink) Deno.utimeSync(target, info.atime ?? info.mtime, info.mtime);
}
