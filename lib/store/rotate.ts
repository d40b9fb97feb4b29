/**
 * Keeping earlier versions of a file the user may have edited (spec 11.7
 * step 2b): `<file>` becomes `<file>.old`, an existing `.old` becomes
 * `.old2`, `.old2` becomes `.old3`, and so on. Renames run from the highest
 * number down, so none lands on a name still in use.
 *
 * @module
 */

import { pathExists } from "../core/fs_checks.ts";

/** Move `path` out of the way as `<path>.old`, shifting older copies up by one. */
export function rotateToOld(path: string): void {
  if (!pathExists(path)) return;
  const dir = path.replace(/[\\/][^\\/]*$/, "") || ".";
  const base = path.slice(dir.length + 1);
  const numbers: number[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.startsWith(`${base}.old`)) continue;
    const suffix = entry.name.slice(base.length + 4);
    if (suffix === "") numbers.push(1);
    else if (/^\d+$/.test(suffix) && Number(suffix) >= 2) numbers.push(Number(suffix));
  }
  const nameOf = (n: number) => `${path}.old${n === 1 ? "" : n}`;
  for (const n of numbers.sort((a, b) => b - a)) Deno.renameSync(nameOf(n), nameOf(n + 1));
  Deno.renameSync(path, nameOf(1));
}
