/**
 * The pieces of a Windows path's root: separators, drive letters, UNC
 * `\\server\share` roots and the reserved device names (`CON`, `COM1`...)
 * that Node's win32 functions treat specially (see shared.ts for the
 * algorithms' origin).
 *
 * @module
 */

import { CHAR_BACKSLASH, CHAR_COLON, CHAR_SLASH } from "./shared.ts";

/** A win32 separator: `\` or `/`. */
export function isWin32Separator(code: number): boolean {
  return code === CHAR_SLASH || code === CHAR_BACKSLASH;
}

/** An ASCII letter, as a drive letter must be. */
export function isDriveLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whether `path` starts with a drive, as `C:`. */
export function hasDrive(path: string): boolean {
  return path.length >= 2 && isDriveLetter(path.charCodeAt(0)) &&
    path.charCodeAt(1) === CHAR_COLON;
}

const RESERVED_NAMES = new Set(
  ("CON PRN AUX NUL COM1 COM2 COM3 COM4 COM5 COM6 COM7 COM8 COM9 COM¹ COM² COM³ " +
    "LPT1 LPT2 LPT3 LPT4 LPT5 LPT6 LPT7 LPT8 LPT9 LPT¹ LPT² LPT³").split(" "),
);

/**
 * Whether what comes before `colonIndex` is a reserved device name. As in
 * Node, a missing colon (-1) tests the path minus its last character.
 */
export function isReservedName(path: string, colonIndex: number): boolean {
  return RESERVED_NAMES.has(path.slice(0, colonIndex).toUpperCase());
}

/** A `\\server\share` root found at the start of a path. */
export interface UncRoot {
  /** The name after the two leading separators. */
  server: string;
  /** Where the share name starts. */
  shareStart: number;
  /** Where the share name ends: the separator after it, or the path's length. */
  shareEnd: number;
}

/** The UNC root of a path that starts with two separators, or null when it has no share name. */
export function uncRoot(path: string): UncRoot | null {
  let j = 2;
  while (j < path.length && !isWin32Separator(path.charCodeAt(j))) j++;
  if (j === 2 || j >= path.length) return null;
  const server = path.slice(2, j);
  while (j < path.length && isWin32Separator(path.charCodeAt(j))) j++;
  if (j >= path.length) return null;
  const shareStart = j;
  while (j < path.length && !isWin32Separator(path.charCodeAt(j))) j++;
  return { server, shareStart, shareEnd: j };
}

/** Whether a path starts with two separators. */
export function startsWithTwoSeparators(path: string): boolean {
  return path.length > 1 && isWin32Separator(path.charCodeAt(0)) &&
    isWin32Separator(path.charCodeAt(1));
}
