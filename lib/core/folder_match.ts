/**
 * When two folder paths name the same folder (DESIGN.md 5.9). Registry rows
 * hold the folder as it was written: the old scripts stored the shell's
 * logical `$PWD` (a symlinked path), a hand edit may leave a trailing
 * separator, and Windows and macOS ignore case. Every decision that matches
 * a row, or a transcript's recorded cwd, to a folder goes through
 * {@linkcode folderMatcher}; comparing the strings is a bug.
 *
 * Reads the file system (realpath), never writes.
 *
 * @module
 */

import type { OsName } from "./paths.ts";
import { resolveRealPath } from "./project_key.ts";

/**
 * A folder path as it compares, without touching the disk: no trailing
 * separators (a root keeps its own), and on Windows one separator and one
 * case, on macOS one case and one Unicode form.
 */
export function folderText(path: string, os: OsName): string {
  const unified = os === "windows" ? path.replace(/\//g, "\\") : path;
  let text = unified.replace(os === "windows" ? /\\+$/ : /\/+$/, "");
  if (text === "" || (os === "windows" && /^[A-Za-z]:$/.test(text))) {
    text = unified.slice(0, text.length + 1);
  }
  if (os === "windows") return text.toLowerCase();
  if (os === "darwin") return text.normalize("NFC").toLowerCase();
  return text;
}

/**
 * A test for "names the folder `dir`", for comparing many paths with one
 * folder: a path matches when its text equals `dir`'s, given or resolved,
 * or when it resolves (symlinks followed) to the same folder. A path that no
 * longer exists is compared as written.
 */
export function folderMatcher(dir: string, os: OsName): (path: string) => boolean {
  const targets = new Set([folderText(dir, os), folderText(resolveRealPath(dir), os)]);
  return (path) =>
    targets.has(folderText(path, os)) || targets.has(folderText(resolveRealPath(path), os));
}

/** Whether two folder paths name the same folder; see {@linkcode folderMatcher}. */
export function sameFolder(a: string, b: string, os: OsName): boolean {
  return folderMatcher(a, os)(b);
}

/**
 * Where the user is: the shell's logical `PWD` when it names the same
 * directory as the process's physical cwd (a folder entered through a
 * symlink keeps that name, as the old scripts stored it), else the cwd.
 */
export function logicalCwd(physical: string, pwd: string | undefined, os: OsName): string {
  if (pwd === undefined || pwd.trim() === "") return physical;
  const absolute = os === "windows" ? /^([A-Za-z]:)?[\\/]/ : /^\//;
  if (!absolute.test(pwd)) return physical;
  return sameFolder(physical, pwd, os) ? pwd : physical;
}

/**
 * `path` carried from under the folder `from` to the same place under `to`
 * (`from/api` → `to/api`, `from` → `to`), or undefined when `path` is not
 * `from` or below it. Compared as {@linkcode folderText} (no disk access:
 * `from` is usually gone); the part below `from` keeps its spelling.
 */
export function relocateUnder(
  path: string,
  move: { from: string; to: string },
  os: OsName,
): string | undefined {
  const separator = os === "windows" ? "\\" : "/";
  const root = folderText(move.from, os);
  const text = folderText(path, os);
  const target = trimSeparators(move.to, os);
  if (text === root) return target;
  const prefix = root.endsWith(separator) ? root : root + separator;
  if (!text.startsWith(prefix)) return undefined;
  const spelled = os === "windows" ? path.replace(/\//g, "\\") : path;
  const below = trimSeparators(os === "darwin" ? spelled.normalize("NFC") : spelled, os)
    .slice(prefix.length);
  return target.endsWith(separator) ? target + below : target + separator + below;
}

function trimSeparators(path: string, os: OsName): string {
  const trimmed = path.replace(os === "windows" ? /[\\/]+$/ : /\/+$/, "");
  return trimmed === "" || (os === "windows" && /^[A-Za-z]:$/.test(trimmed))
    ? path.slice(0, trimmed.length + 1)
    : trimmed;
}
