/**
 * What the posix and win32 path flavours share: the flavour's shape, the
 * `.`/`..` collapsing, and the last-name scans behind `basename` and
 * `extname`.
 *
 * The algorithms follow Node.js's lib/path.js (MIT License, Copyright Joyent,
 * Inc. and other Node contributors), as Deno 2.9.6 ships it for `node:path`,
 * quirks included: tests/path_test.ts compares every function with
 * `node:path` over hundreds of cases. claudecm has its own copy because
 * importing any `node:` module makes Deno load its Node layer, which costs
 * start-up time on every run.
 *
 * @module
 */

/** The subset of a `node:path` flavour (`posix` or `win32`) claudecm uses. */
export interface PathFlavour {
  /** The separator this flavour writes: `/` or `\`. */
  readonly sep: "/" | "\\";
  /** Join the non-empty segments with `sep` and normalize the result. */
  join(...segments: string[]): string;
  /** The absolute path the segments lead to, from the current directory. */
  resolve(...segments: string[]): string;
  /** Collapse repeated separators, `.` and `..`; keep one trailing separator. */
  normalize(path: string): string;
  /** Whether `path` starts at a root. */
  isAbsolute(path: string): boolean;
  /** The path from `from` to `to`, both resolved first. */
  relative(from: string, to: string): string;
  /** Everything before the last name. */
  dirname(path: string): string;
  /** The last name, without `suffix` when it ends with it. */
  basename(path: string, suffix?: string): string;
  /** The last name's extension, from its last dot. */
  extname(path: string): string;
}

/** Tells whether a UTF-16 code unit separates names. */
export type SeparatorTest = (code: number) => boolean;

export const CHAR_DOT = 46;
export const CHAR_SLASH = 47;
export const CHAR_COLON = 58;
export const CHAR_BACKSLASH = 92;

/** A posix separator: `/` only. */
export function isPosixSeparator(code: number): boolean {
  return code === CHAR_SLASH;
}

/**
 * Collapse a rootless path: drop empty and `.` names, let `..` remove the name
 * before it (or stay, when `allowAboveRoot` and nothing is left to remove),
 * and join what is left with `separator`.
 */
export function collapseDots(
  path: string,
  allowAboveRoot: boolean,
  options: { separator: string; isSeparator: SeparatorTest },
): string {
  const names: string[] = [];
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && !options.isSeparator(path.charCodeAt(i))) continue;
    const name = path.slice(start, i);
    start = i + 1;
    if (name === "" || name === ".") continue;
    if (name !== "..") names.push(name);
    else if (names.length > 0 && names[names.length - 1] !== "..") names.pop();
    else if (allowAboveRoot) names.push("..");
  }
  return names.join(options.separator);
}

/**
 * `basename`: the last name at or after `start`, trailing separators ignored.
 * With a suffix, Node's scan matches it from the end of that name; a suffix
 * longer than the name that still matches all of it keeps any trailing
 * separators (Node does the same).
 */
export function lastName(
  path: string,
  suffix: string | undefined,
  options: { start: number; isSeparator: SeparatorTest },
): string {
  let start = options.start;
  let end = -1;
  let inTrailingSeparators = true;
  if (suffix === undefined || suffix.length === 0 || suffix.length > path.length) {
    for (let i = path.length - 1; i >= start; i--) {
      if (options.isSeparator(path.charCodeAt(i))) {
        if (!inTrailingSeparators) {
          start = i + 1;
          break;
        }
      } else if (end === -1) {
        inTrailingSeparators = false;
        end = i + 1;
      }
    }
    return end === -1 ? "" : path.slice(start, end);
  }
  if (suffix === path) return "";
  let suffixIndex = suffix.length - 1;
  let nameEnd = -1;
  for (let i = path.length - 1; i >= start; i--) {
    const code = path.charCodeAt(i);
    if (options.isSeparator(code)) {
      if (!inTrailingSeparators) {
        start = i + 1;
        break;
      }
      continue;
    }
    if (nameEnd === -1) {
      inTrailingSeparators = false;
      nameEnd = i + 1;
    }
    if (suffixIndex < 0) continue;
    if (code === suffix.charCodeAt(suffixIndex)) {
      suffixIndex--;
      if (suffixIndex === -1) end = i;
    } else {
      suffixIndex = -1;
      end = nameEnd;
    }
  }
  if (start === end) end = nameEnd;
  else if (end === -1) end = path.length;
  return path.slice(start, end);
}

/**
 * `extname`: from the last dot of the last name at or after `start` to the
 * name's end; empty when the name has no dot, starts with its only dot, or
 * is `..`.
 */
export function extension(
  path: string,
  options: { start: number; isSeparator: SeparatorTest },
): string {
  let nameStart = options.start;
  let nameEnd = -1;
  let lastDot = -1;
  let inTrailingSeparators = true;
  // Before the last dot: 0 nothing yet, 1 only dots, -1 some other character.
  let beforeDot = 0;
  for (let i = path.length - 1; i >= options.start; i--) {
    const code = path.charCodeAt(i);
    if (options.isSeparator(code)) {
      if (!inTrailingSeparators) {
        nameStart = i + 1;
        break;
      }
      continue;
    }
    if (nameEnd === -1) {
      inTrailingSeparators = false;
      nameEnd = i + 1;
    }
    if (code === CHAR_DOT) {
      if (lastDot === -1) lastDot = i;
      else if (beforeDot !== 1) beforeDot = 1;
    } else if (lastDot !== -1) {
      beforeDot = -1;
    }
  }
  const isDotDot = beforeDot === 1 && lastDot === nameEnd - 1 && lastDot === nameStart + 1;
  if (lastDot === -1 || nameEnd === -1 || beforeDot === 0 || isDotDot) return "";
  return path.slice(lastDot, nameEnd);
}
