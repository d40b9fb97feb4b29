/**
 * win32 `resolve`, apart because `relative` needs it too (see shared.ts for
 * the algorithm's origin).
 *
 * @module
 */

import { CHAR_BACKSLASH, collapseDots } from "./shared.ts";
import { hasDrive, isWin32Separator, uncRoot } from "./win32_root.ts";

const COLLAPSE = { separator: "\\", isSeparator: isWin32Separator };

/** A path's root as resolve and normalize read it. */
interface Root {
  device: string;
  /** Where the part after the root starts. */
  end: number;
  absolute: boolean;
}

/** The root of one `resolve` segment. */
function resolveRoot(path: string): Root {
  const first = path.charCodeAt(0);
  if (path.length === 1) {
    const absolute = isWin32Separator(first);
    return { device: "", end: absolute ? 1 : 0, absolute };
  }
  if (isWin32Separator(first)) {
    if (!isWin32Separator(path.charCodeAt(1))) return { device: "", end: 1, absolute: true };
    const unc = uncRoot(path);
    if (unc === null) return { device: "", end: 0, absolute: true };
    if (unc.server === "." || unc.server === "?") {
      return { device: `\\\\${unc.server}`, end: 4, absolute: true };
    }
    const share = path.slice(unc.shareStart, unc.shareEnd);
    return { device: `\\\\${unc.server}\\${share}`, end: unc.shareEnd, absolute: true };
  }
  if (hasDrive(path)) {
    const absolute = path.length > 2 && isWin32Separator(path.charCodeAt(2));
    return { device: path.slice(0, 2), end: absolute ? 3 : 2, absolute };
  }
  return { device: "", end: 0, absolute: false };
}

/**
 * The current directory of drive `device`. Node reads the `=C:` variable
 * Windows keeps per drive; Deno.env cannot read names with `=`, so this falls
 * back to the process's directory, as Node does when the variable is unset.
 */
function driveCwd(device: string): string {
  const cwd = Deno.cwd();
  const onOtherDrive = cwd.slice(0, 2).toLowerCase() !== device.toLowerCase() &&
    cwd.charCodeAt(2) === CHAR_BACKSLASH;
  return onOtherDrive ? `${device}\\` : cwd;
}

/** The absolute Windows path the segments lead to, as `node:path`'s `win32.resolve`. */
export function resolve(...segments: string[]): string {
  let device = "";
  let tail = "";
  let absolute = false;
  for (let i = segments.length - 1; i >= -1; i--) {
    let path: string;
    if (i >= 0) {
      path = segments[i];
    } else if (device === "") {
      path = Deno.cwd();
      const onlyCwd = segments.length === 0 ||
        (segments.length === 1 && (segments[0] === "" || segments[0] === ".") &&
          isWin32Separator(path.charCodeAt(0)));
      if (onlyCwd) return path;
    } else {
      path = driveCwd(device);
    }
    const root = resolveRoot(path);
    if (root.device.length > 0) {
      if (device.length === 0) device = root.device;
      // A segment on another device does not apply.
      else if (root.device.toLowerCase() !== device.toLowerCase()) continue;
    }
    if (absolute) {
      if (device.length > 0) break;
    } else {
      tail = `${path.slice(root.end)}\\${tail}`;
      absolute = root.absolute;
      if (absolute && device.length > 0) break;
    }
  }
  tail = collapseDots(tail, !absolute, COLLAPSE);
  return absolute ? `${device}\\${tail}` : `${device}${tail}` || ".";
}
