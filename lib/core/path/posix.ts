/**
 * The posix path flavour, equal to `node:path`'s `posix` (see shared.ts for
 * the algorithms' origin).
 *
 * @module
 */

import {
  CHAR_SLASH,
  collapseDots,
  extension,
  isPosixSeparator,
  lastName,
  type PathFlavour,
} from "./shared.ts";
import { hostOs } from "../../platform/os.ts";

const COLLAPSE = { separator: "/", isSeparator: isPosixSeparator };
const WHOLE_PATH = { start: 0, isSeparator: isPosixSeparator };

/** The current directory as a posix path; on Windows, Node drops the drive and turns `\` into `/`. */
function posixCwd(): string {
  const cwd = Deno.cwd();
  if (hostOs !== "windows") return cwd;
  const slashed = cwd.replaceAll("\\", "/");
  return slashed.slice(slashed.indexOf("/"));
}

function resolve(...segments: string[]): string {
  if (
    segments.length === 0 || (segments.length === 1 && (segments[0] === "" || segments[0] === "."))
  ) {
    const cwd = posixCwd();
    if (cwd.charCodeAt(0) === CHAR_SLASH) return cwd;
  }
  let resolved = "";
  let absolute = false;
  for (let i = segments.length - 1; i >= 0 && !absolute; i--) {
    const segment = segments[i];
    if (segment.length === 0) continue;
    resolved = `${segment}/${resolved}`;
    absolute = segment.charCodeAt(0) === CHAR_SLASH;
  }
  if (!absolute) {
    const cwd = posixCwd();
    resolved = `${cwd}/${resolved}`;
    absolute = cwd.charCodeAt(0) === CHAR_SLASH;
  }
  resolved = collapseDots(resolved, !absolute, COLLAPSE);
  if (absolute) return `/${resolved}`;
  return resolved.length > 0 ? resolved : ".";
}

/** An empty, `.` or `..` segment: without one, a path is already normal. */
const NEEDS_NORMALIZING = /\/\/|(?:^|\/)\.{1,2}(?:\/|$)/;

function normalize(path: string): string {
  if (path.length === 0) return ".";
  // Most paths claudecm joins are already normal. One regex test answers for
  // them; the walk below costs ~10 µs a call in a cold process, where it runs
  // interpreted (a 1,000-session list joins thousands of paths).
  if (!NEEDS_NORMALIZING.test(path)) return path;
  const absolute = path.charCodeAt(0) === CHAR_SLASH;
  const trailingSeparator = path.charCodeAt(path.length - 1) === CHAR_SLASH;
  let normalized = collapseDots(path, !absolute, COLLAPSE);
  if (normalized.length === 0 && !absolute) normalized = ".";
  if (normalized.length > 0 && trailingSeparator) normalized += "/";
  return absolute ? `/${normalized}` : normalized;
}

function isAbsolute(path: string): boolean {
  return path.length > 0 && path.charCodeAt(0) === CHAR_SLASH;
}

function join(...segments: string[]): string {
  const joined = segments.filter((segment) => segment.length > 0).join("/");
  return joined.length === 0 ? "." : normalize(joined);
}

function relative(from: string, to: string): string {
  if (from === to) return "";
  from = resolve(from);
  to = resolve(to);
  if (from === to) return "";
  // Both are absolute now: compare them after the leading slash.
  const fromLength = from.length - 1;
  const toLength = to.length - 1;
  const length = Math.min(fromLength, toLength);
  let lastCommonSeparator = -1;
  let i = 0;
  for (; i < length; i++) {
    const code = from.charCodeAt(1 + i);
    if (code !== to.charCodeAt(1 + i)) break;
    if (code === CHAR_SLASH) lastCommonSeparator = i;
  }
  if (i === length) {
    if (toLength > length) {
      // `from` is `to`'s ancestor (or the root).
      if (to.charCodeAt(1 + i) === CHAR_SLASH) return to.slice(1 + i + 1);
      if (i === 0) return to.slice(1 + i);
    } else if (fromLength > length) {
      // `to` is `from`'s ancestor (or the root).
      if (from.charCodeAt(1 + i) === CHAR_SLASH) lastCommonSeparator = i;
      else if (i === 0) lastCommonSeparator = 0;
    }
  }
  let up = "";
  for (i = 1 + lastCommonSeparator + 1; i <= from.length; i++) {
    if (i === from.length || from.charCodeAt(i) === CHAR_SLASH) {
      up += up.length === 0 ? ".." : "/..";
    }
  }
  return up + to.slice(1 + lastCommonSeparator);
}

function dirname(path: string): string {
  if (path.length === 0) return ".";
  const hasRoot = path.charCodeAt(0) === CHAR_SLASH;
  let end = -1;
  let inTrailingSeparators = true;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path.charCodeAt(i) === CHAR_SLASH) {
      if (!inTrailingSeparators) {
        end = i;
        break;
      }
    } else {
      inTrailingSeparators = false;
    }
  }
  if (end === -1) return hasRoot ? "/" : ".";
  if (hasRoot && end === 1) return "//";
  return path.slice(0, end);
}

function basename(path: string, suffix?: string): string {
  return lastName(path, suffix, WHOLE_PATH);
}

function extname(path: string): string {
  return extension(path, WHOLE_PATH);
}

/** Posix paths, as `node:path`'s `posix`. */
export const posix: PathFlavour = {
  sep: "/",
  join,
  resolve,
  normalize,
  isAbsolute,
  relative,
  dirname,
  basename,
  extname,
};
