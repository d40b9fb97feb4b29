/**
 * The win32 path flavour, equal to `node:path`'s `win32` (see shared.ts for
 * the algorithms' origin). Both `\` and `/` separate; results use `\`.
 *
 * @module
 */

import { collapseDots, extension, lastName, type PathFlavour } from "./shared.ts";
import {
  hasDrive,
  isDriveLetter,
  isReservedName,
  isWin32Separator,
  startsWithTwoSeparators,
  uncRoot,
} from "./win32_root.ts";
import { relative } from "./win32_relative.ts";
import { resolve } from "./win32_resolve.ts";

const COLLAPSE = { separator: "\\", isSeparator: isWin32Separator };

function normalize(path: string): string {
  const length = path.length;
  if (length === 0) return ".";
  const first = path.charCodeAt(0);
  if (length === 1) return isWin32Separator(first) ? "\\" : path;
  let rootEnd = 0;
  let device: string | undefined;
  let absolute = false;
  if (isWin32Separator(first)) {
    absolute = true;
    rootEnd = 1;
    const unc = isWin32Separator(path.charCodeAt(1)) ? uncRoot(path) : null;
    if (isWin32Separator(path.charCodeAt(1))) rootEnd = 0;
    if (unc !== null && (unc.server === "." || unc.server === "?")) {
      device = `\\\\${unc.server}`;
      rootEnd = 4;
      const deviceName = path.slice(4, path.indexOf(":") + 1);
      if (isReservedName(deviceName, deviceName.length - 1)) {
        device = `\\\\?\\${deviceName}`;
        rootEnd = 4 + deviceName.length;
      }
    } else if (unc !== null && unc.shareEnd === length) {
      return `\\\\${unc.server}\\${path.slice(unc.shareStart)}\\`;
    } else if (unc !== null) {
      device = `\\\\${unc.server}\\${path.slice(unc.shareStart, unc.shareEnd)}`;
      rootEnd = unc.shareEnd;
    }
  } else {
    const colon = path.indexOf(":");
    if (colon === 1 && isDriveLetter(first)) {
      device = path.slice(0, 2);
      rootEnd = 2;
      if (length > 2 && isWin32Separator(path.charCodeAt(2))) {
        absolute = true;
        rootEnd = 3;
      }
    } else if (colon > 0 && isReservedName(path, colon)) {
      device = path.slice(0, colon + 1);
      rootEnd = colon + 1;
    }
  }
  let tail = rootEnd < length ? collapseDots(path.slice(rootEnd), !absolute, COLLAPSE) : "";
  if (tail.length === 0 && !absolute) tail = ".";
  if (tail.length > 0 && isWin32Separator(path.charCodeAt(length - 1))) tail += "\\";
  // A relative path whose first name looks like a drive or ends in a colon
  // gets `.\` in front, so it cannot be read as a drive or a stream.
  if (!absolute && device === undefined && path.includes(":")) {
    if (hasDrive(tail)) return `.\\${tail}`;
    for (let colon = path.indexOf(":"); colon !== -1; colon = path.indexOf(":", colon + 1)) {
      if (colon === length - 1 || isWin32Separator(path.charCodeAt(colon + 1))) {
        return `.\\${tail}`;
      }
    }
  }
  if (isReservedName(path, path.indexOf(":"))) return `.\\${device ?? ""}${tail}`;
  if (device === undefined) return absolute ? `\\${tail}` : tail;
  return absolute ? `${device}\\${tail}` : `${device}${tail}`;
}

function isAbsolute(path: string): boolean {
  if (path.length === 0) return false;
  if (isWin32Separator(path.charCodeAt(0))) return true;
  return path.length > 2 && hasDrive(path) && isWin32Separator(path.charCodeAt(2));
}

function join(...segments: string[]): string {
  const parts = segments.filter((segment) => segment.length > 0);
  if (parts.length === 0) return ".";
  let joined = parts.join("\\");
  // Leading separators would read as a UNC root; keep them only when the
  // first segment clearly starts one (exactly two separators, then a name).
  const first = parts[0];
  const startsUnc = startsWithTwoSeparators(first) && first.length > 2 &&
    !isWin32Separator(first.charCodeAt(2));
  if (!startsUnc) {
    let separators = 0;
    while (separators < joined.length && isWin32Separator(joined.charCodeAt(separators))) {
      separators++;
    }
    if (separators >= 2) joined = `\\${joined.slice(separators)}`;
  }
  // Node leaves a path naming a reserved device (`CON:`...) unnormalized.
  const names = joined.split(/[\\/]/);
  if (names.some((name) => name.includes(":") && isReservedName(name, name.indexOf(":")))) {
    return joined.split("/").join("\\");
  }
  return normalize(joined);
}

function dirname(path: string): string {
  const length = path.length;
  if (length === 0) return ".";
  const first = path.charCodeAt(0);
  if (length === 1) return isWin32Separator(first) ? path : ".";
  let rootEnd = -1;
  if (isWin32Separator(first)) {
    rootEnd = 1;
    const unc = isWin32Separator(path.charCodeAt(1)) ? uncRoot(path) : null;
    if (unc !== null) {
      // A UNC root alone is its own dirname.
      if (unc.shareEnd === length) return path;
      rootEnd = unc.shareEnd + 1;
    }
  } else if (hasDrive(path)) {
    rootEnd = length > 2 && isWin32Separator(path.charCodeAt(2)) ? 3 : 2;
  }
  let end = -1;
  let inTrailingSeparators = true;
  for (let i = length - 1; i >= Math.max(rootEnd, 0); i--) {
    if (isWin32Separator(path.charCodeAt(i))) {
      if (!inTrailingSeparators) {
        end = i;
        break;
      }
    } else {
      inTrailingSeparators = false;
    }
  }
  if (end === -1) {
    if (rootEnd === -1) return ".";
    end = rootEnd;
  }
  return path.slice(0, end);
}

function afterDrive(path: string): { start: number; isSeparator: typeof isWin32Separator } {
  return { start: hasDrive(path) ? 2 : 0, isSeparator: isWin32Separator };
}

function basename(path: string, suffix?: string): string {
  return lastName(path, suffix, afterDrive(path));
}

function extname(path: string): string {
  return extension(path, afterDrive(path));
}

/** Windows paths, as `node:path`'s `win32`. */
export const win32: PathFlavour = {
  sep: "\\",
  join,
  resolve,
  normalize,
  isAbsolute,
  relative,
  dirname,
  basename,
  extname,
};
