/**
 * win32 `relative`: case-insensitive, as Windows compares names (see
 * shared.ts for the algorithm's origin).
 *
 * @module
 */

import { CHAR_BACKSLASH } from "./shared.ts";
import { resolve } from "./win32_resolve.ts";

/** The path from `from` to `to`, as `node:path`'s `win32.relative`. */
export function relative(from: string, to: string): string {
  if (from === to) return "";
  const fromOriginal = resolve(from);
  const toOriginal = resolve(to);
  if (fromOriginal === toOriginal) return "";
  from = fromOriginal.toLowerCase();
  to = toOriginal.toLowerCase();
  if (from === to) return "";
  // Lowercasing changed a length (some non-ASCII letters): compare by names.
  if (fromOriginal.length !== from.length || toOriginal.length !== to.length) {
    return relativeByNames(fromOriginal, toOriginal);
  }
  const fromStart = skipBackslashes(from);
  const fromEnd = trimBackslashes(from, fromStart);
  const fromLength = fromEnd - fromStart;
  let toStart = skipBackslashes(to);
  const toEnd = trimBackslashes(to, toStart);
  const toLength = toEnd - toStart;
  const length = Math.min(fromLength, toLength);
  let lastCommonSeparator = -1;
  let i = 0;
  for (; i < length; i++) {
    const code = from.charCodeAt(fromStart + i);
    if (code !== to.charCodeAt(toStart + i)) break;
    if (code === CHAR_BACKSLASH) lastCommonSeparator = i;
  }
  if (i !== length) {
    // They differ before any common separator: another drive or share.
    if (lastCommonSeparator === -1) return toOriginal;
  } else {
    if (toLength > length) {
      // `from` is `to`'s ancestor, or its drive root (`C:\` to `C:\foo`).
      if (to.charCodeAt(toStart + i) === CHAR_BACKSLASH) return toOriginal.slice(toStart + i + 1);
      if (i === 2) return toOriginal.slice(toStart + i);
    }
    if (fromLength > length) {
      // `to` is `from`'s ancestor, or its drive root.
      if (from.charCodeAt(fromStart + i) === CHAR_BACKSLASH) lastCommonSeparator = i;
      else if (i === 2) lastCommonSeparator = 3;
    }
    if (lastCommonSeparator === -1) lastCommonSeparator = 0;
  }
  let up = "";
  for (i = fromStart + lastCommonSeparator + 1; i <= fromEnd; i++) {
    if (i === fromEnd || from.charCodeAt(i) === CHAR_BACKSLASH) {
      up += up.length === 0 ? ".." : "\\..";
    }
  }
  toStart += lastCommonSeparator;
  if (up.length > 0) return up + toOriginal.slice(toStart, toEnd);
  if (toOriginal.charCodeAt(toStart) === CHAR_BACKSLASH) toStart++;
  return toOriginal.slice(toStart, toEnd);
}

function relativeByNames(fromPath: string, toPath: string): string {
  const from = withoutTrailingEmpty(fromPath.split("\\"));
  const to = withoutTrailingEmpty(toPath.split("\\"));
  const length = Math.min(from.length, to.length);
  let common = 0;
  while (common < length && from[common].toLowerCase() === to[common].toLowerCase()) common++;
  if (common === 0) return toPath;
  if (common === length) {
    if (to.length > length) return to.slice(common).join("\\");
    if (from.length > length) return "..\\".repeat(from.length - 1 - common) + "..";
    return "";
  }
  return "..\\".repeat(from.length - common) + to.slice(common).join("\\");
}

function withoutTrailingEmpty(names: string[]): string[] {
  return names[names.length - 1] === "" ? names.slice(0, -1) : names;
}

function skipBackslashes(path: string): number {
  let start = 0;
  while (start < path.length && path.charCodeAt(start) === CHAR_BACKSLASH) start++;
  return start;
}

/** The end of `path` without trailing backslashes, never before `start` + 1. */
function trimBackslashes(path: string, start: number): number {
  let end = path.length;
  while (end - 1 > start && path.charCodeAt(end - 1) === CHAR_BACKSLASH) end--;
  return end;
}
