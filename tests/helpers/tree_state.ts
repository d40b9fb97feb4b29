/**
 * A fingerprint of a directory tree, to prove a read-only command wrote
 * nothing: every path under a root with its size, mtime and, for files,
 * content. Compare the fingerprint before and after.
 *
 * @module
 */

import { join } from "../../lib/core/path.ts";
import { slashed } from "./portable.ts";

/** Every path under `root` (relative, `/`-separated on every OS), with size, mtime and file content, sorted. */
export function treeState(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      const info = Deno.lstatSync(path);
      const content = info.isFile ? Deno.readTextFileSync(path) : "";
      found.push(
        `${slashed(path.slice(root.length))} ${info.size} ${info.mtime?.getTime()} ${content}`,
      );
      if (info.isDirectory) walk(path);
    }
  };
  walk(root);
  return found.sort();
}
