/**
 * Questions about paths. `isFile`, `isDirectory` and `pathExists` answer
 * without throwing, and a path that cannot be looked at counts as not there:
 * right for "may I create this?", wrong for any decision that could lose
 * data. Where "not there" leads to a decision (offering to delete a row,
 * reporting a session as missing), use {@linkcode probePath}, which keeps
 * "not found" apart from every other error (DESIGN.md 5.11), or
 * {@linkcode readDirIfPresent} and {@linkcode isPresent}, which throw it.
 *
 * @module
 */

import { environmentUserError, UserError, withPath } from "./errors.ts";

/** What stands at a path: found (with its info), not found, or not knowable. */
export type PathProbe =
  | { kind: "file" | "directory" | "other"; info: Deno.FileInfo }
  | { kind: "missing" }
  | { kind: "unreadable"; error: string };

/** Look at `path` (symlinks followed); only a path that is really not there is `missing`. */
export function probePath(path: string): PathProbe {
  try {
    const info = Deno.statSync(path);
    return { kind: info.isFile ? "file" : info.isDirectory ? "directory" : "other", info };
  } catch (error) {
    if (isNotFound(error)) return { kind: "missing" };
    return { kind: "unreadable", error: describeFsError(error) };
  }
}

/**
 * The info of whatever is at `path` (a symlink itself with `links: "self"`);
 * null only when nothing is there. Any other error is thrown: a caller that
 * moves or copies must not take "cannot look" for "not there".
 */
export function infoOrNull(
  path: string,
  { links = "follow" }: { links?: "follow" | "self" } = {},
): Deno.FileInfo | null {
  try {
    return links === "self" ? Deno.lstatSync(path) : Deno.statSync(path);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The info of the regular file at `path`; null when none is there or it cannot be looked at. */
export function fileInfoOrNull(path: string): Deno.FileInfo | null {
  const probe = probePath(path);
  return probe.kind === "file" ? probe.info : null;
}

/** Whether a caught error means the path does not exist (a component may be a file). */
export function isNotFound(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}

/**
 * `look()`, run again when a file it reads vanishes meanwhile (another window
 * moved it), up to `times` runs in all; "changing" when the files never held
 * still. Other errors are thrown.
 */
export function lookAgainIfGone<T>(look: () => T, times = 3): T | "changing" {
  for (let run = 1; run <= times; run++) {
    try {
      return look();
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return "changing";
}

/** What reading a file that outside data names gave: its bytes, or why it was not read. */
export type RegularRead = { bytes: Uint8Array } | { skipped: string };

/**
 * The bytes of `path` when it is a regular file of at most `maxBytes` (links
 * followed). A device, a pipe or a socket is never read: a read may never end
 * (a FIFO) or never stop (`/dev/zero`); nor is a file past the cap. A path
 * that is not there, or cannot be looked at, throws.
 */
export function readRegularFile(path: string, maxBytes: number): RegularRead {
  const info = Deno.statSync(path);
  if (info.isDirectory) return { skipped: "a folder, not a file" };
  if (!info.isFile) return { skipped: "not a regular file (a device, pipe or socket)" };
  if (info.size > maxBytes) return { skipped: `too large to read (${info.size} bytes)` };
  return { bytes: Deno.readFileSync(path) };
}

/** The most a settings-like file is read up to (see {@linkcode readSettingsText}). */
export const SETTINGS_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The text of a small file claudecm or Claude Code keeps settings in
 * (settings.json, config.json, machine-name.txt), read only when it is a
 * regular file under `maxBytes`: a FIFO or a device at that name (a dotfile
 * link gone wrong) must not hang every run. Throws when it is not there
 * (`NotFound`) or is not such a file (an Error saying what it is).
 */
export function readSettingsText(path: string, maxBytes = SETTINGS_MAX_BYTES): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(readRegularBytes(path, maxBytes));
}

/**
 * The bytes of `path` when it is a regular file of at most `maxBytes`
 * ({@linkcode readRegularFile}); anything else throws a {@linkcode NotRegularFile}
 * saying what is there. Not there throws `NotFound`, as a read does.
 */
export function readRegularBytes(path: string, maxBytes: number): Uint8Array {
  const read = readRegularFile(path, maxBytes);
  if ("skipped" in read) throw new NotRegularFile(path, read.skipped);
  return read.bytes;
}

/** What stands at a path claudecm reads is not a regular file it may read (see readRegularFile). */
export class NotRegularFile extends Error {
  constructor(readonly path: string, readonly what: string) {
    super(`it is ${what}`);
  }
}

/** Whether a caught error means a file cannot be read here: it is gone, or closed to us. */
export function isGoneOrClosed(error: unknown): boolean {
  return isNotFound(error) || error instanceof Deno.errors.PermissionDenied;
}

/** A short reason for a file system error: `permission denied`, or the OS message. */
export function describeFsError(error: unknown): string {
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  const message = error instanceof Error ? error.message : String(error);
  // Deno appends the call and path (`: stat '/x'`); the caller names the path itself.
  return message.replace(/ \(os error \d+\)/, "").replace(/: \w+ '.*'$/, "");
}

/**
 * Why reading `path` failed, for a message: an environment failure with its
 * fix ("permission denied: <path>; let your user read..."), else "cannot read
 * <path>: <why>", the path named once.
 */
export function readFailure(path: string, error: unknown): string {
  return environmentUserError(withPath(error, path))?.message ??
    `cannot read ${path}: ${describeFsError(error)}`;
}

/** A pipe or a device where a transcript was named: it is there, so not "not found", and never read. */
export function notATranscriptFile(path: string): UserError {
  return new UserError(
    `${path} is not a regular file (a pipe or a device); name a transcript file`,
  );
}

/** Whether `path` is a regular file (symlinks followed). */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * Whether a registered folder is gone: nothing is there, or a file stands in
 * its place. A folder that cannot be looked at is not gone (DESIGN.md 5.11):
 * the list marks it, doctor reports it and a resume asks where it went only
 * when it really is not there.
 */
export function isFolderGone(path: string): boolean {
  const probe = probePath(path);
  return probe.kind === "missing" || probe.kind === "file" || probe.kind === "other";
}

/** Whether `path` is a directory (symlinks followed). */
export function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * The entries of directory `dir`, or none when it cannot be listed. For scans
 * that look for candidates (transcripts, project folders, scratch files),
 * where a folder that is not there or not readable simply holds none. Sorted
 * by name.
 */
export function readDirOrEmpty(dir: string): Deno.DirEntry[] {
  try {
    // Sorted: the order a folder is read in differs by OS and file system, what is shown must not.
    return [...Deno.readDirSync(dir)].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0
    );
  } catch {
    return [];
  }
}

/**
 * The entries of directory `dir`; none when nothing is there. Any other
 * failure (no permission, a file where the folder should be) is thrown: where
 * "none" would tell a user a copy is not there (the vault), a folder that
 * cannot be read is not an empty one (DESIGN.md 5.11).
 */
export function readDirIfPresent(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw withPath(error, dir);
  }
}

/**
 * Whether anything, even a dangling symlink, stands at `path`; throws when
 * that cannot be known (a folder on the way that cannot be read, or a file).
 */
export function isPresent(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw withPath(error, path);
  }
}

/** The names of the subdirectories of `dir`, sorted; none when it cannot be listed. */
export function subdirectoryNames(dir: string): string[] {
  return readDirOrEmpty(dir).filter((entry) => entry.isDirectory).map((entry) => entry.name)
    .sort();
}

/** Whether anything, even a dangling symlink, stands at `path`. */
export function pathExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
