/**
 * Rewriting the `project` of Claude Code's prompt history lines
 * (`<claude root>/history.jsonl`; lib/core/history_lines.ts) when a folder
 * moves, without losing a line a running claude appends meanwhile.
 *
 * claude 2.1.332 appends under a proper-lockfile lock (`history.jsonl.lock`,
 * a folder; stale after 10 s; it retries for about 350 ms and keeps the
 * lines it could not write for its next flush), but a claude that writes
 * through its storage layer, or another version, may not take it. So the
 * lock is taken when it can be, and the write is a compare-and-swap anyway:
 * right before the rename the file must still be the one read (the same
 * file, no shorter), else it is read and rewritten again. Lines appended to
 * the old file after the read, up to the rename, are read from it (held
 * open) and appended, rewritten, to the new one (on Windows, which is not
 * relied on to rename over an open file, any growth is read again instead).
 *
 * @module
 */

import { moveHistoryProjects } from "../core/history_lines.ts";
import { UserError } from "../core/errors.ts";
import { NotRegularFile } from "../core/fs_checks.ts";
import type { OsName, Paths } from "../core/paths.ts";
import { sleepSync } from "../core/sleep_sync.ts";
import { realTarget, writeFileAtomic } from "./atomic_write.ts";
import { removeDeadWritersTemps } from "./stale_temps.ts";
import { basename, dirname } from "../core/path.ts";

const ATTEMPTS = 5;
/** claude's lock on history.jsonl is stale after this long (its proper-lockfile `stale`). */
const LOCK_STALE_MS = 10_000;
/** How long to wait for claude's lock; a claude appends in milliseconds. */
const LOCK_WAIT_MS = 2_000;
/** What claudecm's temporary copy is called, beside the file: `<name>.claudecm.tmp-<pid>`. */
const TEMP_STEM = ".claudecm";

/** `<claude root>/history.jsonl`. */
export function historyFileOf(paths: Paths): string {
  return paths.path.join(paths.claudeRoot, "history.jsonl");
}

/** The lines `move` would change in the history at `path`; 0 when there is none. Throws when it cannot be read. */
export function countHistoryMoves(
  path: string,
  move: { from: string; to: string },
  os: OsName,
): number {
  const file = openHistory(path);
  if (file === null) return 0;
  try {
    return moveHistoryProjects(readAll(file), move, os).changed;
  } finally {
    file.close();
  }
}

/**
 * Rewrite the history at `path` so the lines of `move.from` (and below) name
 * `move.to`; every other byte, and every line appended meanwhile, kept.
 * Returns how many lines changed.
 */
export function moveHistoryLines(
  path: string,
  move: { from: string; to: string },
  { os, afterRead }: {
    os: OsName;
    /** Called between the read and the rewrite (a test's claude writes there). */
    afterRead?: () => void;
  },
): number {
  // The copy is made beside the file a link leads to, under that file's name (writeFileAtomic).
  const target = realTarget(path);
  const stem = `${basename(target)}${TEMP_STEM}`;
  removeDeadWritersTemps(dirname(target), { named: (name) => name === stem });
  // Whether the file read stays open through the rename, so that lines appended to it meanwhile
  // can be carried over. Windows is not relied on to rename over a file held open: there the file
  // must be exactly as read.
  const holdOpen = os !== "windows";
  const release = takeClaudesLock(path);
  try {
    for (let attempt = 1;; attempt++) {
      const file = openHistory(path);
      if (file === null) return 0;
      let open = true;
      try {
        const before = readAll(file);
        const { bytes: after, changed } = moveHistoryProjects(before, move, os);
        if (changed === 0) return 0;
        afterRead?.();
        const replaced = writeFileAtomic(path, after, {
          tmpSuffix: `${TEMP_STEM}.tmp-${Deno.pid}`,
          beforeRename: () => {
            const unchanged = onlyAppendedTo(path, file, before.length, { grown: holdOpen });
            if (!holdOpen) {
              file.close();
              open = false;
            }
            return unchanged;
          },
        });
        if (replaced) {
          return changed +
            (holdOpen ? carryLateLines(file, before.length, { path, move, os }) : 0);
        }
      } finally {
        if (open) file.close();
      }
      if (attempt === ATTEMPTS) throw new UserError(`${path} kept changing while it was rewritten`);
    }
  } finally {
    release();
  }
}

/** The history opened for reading; null when there is none. Anything but a regular file throws. */
function openHistory(path: string): Deno.FsFile | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  // A pipe at its name would never end a read.
  if (!info.isFile) throw new NotRegularFile(path, "not a regular file");
  return Deno.openSync(path, { read: true });
}

function readAll(file: Deno.FsFile, from = 0): Uint8Array {
  file.seekSync(from, Deno.SeekMode.Start);
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const buffer = new Uint8Array(1 << 20);
    const read = file.readSync(buffer);
    if (read === null) break;
    chunks.push(buffer.subarray(0, read));
    total += read;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * Whether `path` is still the file `file` read, at least as long: lines
 * claude appended since are in the held file and carried over after the
 * rename. A file replaced (claude's retention prune rewrites it) or cut is
 * read again.
 */
function onlyAppendedTo(
  path: string,
  file: Deno.FsFile,
  size: number,
  { grown }: { grown: boolean },
): boolean {
  const now = Deno.statSync(path);
  const held = file.statSync();
  if (grown ? now.size < size || held.size < size : now.size !== size || held.size !== size) {
    return false;
  }
  // Windows gives no inode: the sizes must then match as well.
  return now.ino === null || held.ino === null ? now.size === held.size : now.ino === held.ino;
}

/**
 * Lines appended to the old file after the check and before the rename
 * landed in the file no name points at now: append them, moved, to the new one.
 * A claude that opened the old file just before the rename writes to it just
 * after: the old file is watched until it has stayed still for a while, and
 * only whole lines are carried until then, so a line written in two parts
 * stays one line.
 */
function carryLateLines(
  file: Deno.FsFile,
  size: number,
  { path, move, os }: { path: string; move: { from: string; to: string }; os: OsName },
): number {
  let changed = 0;
  let from = size;
  for (let still = 0; still < LATE_STILL_LOOKS;) {
    const late = readAll(file, from);
    const whole = late.lastIndexOf(0x0a) + 1;
    if (whole === 0) {
      still++;
      sleepSync(LATE_LOOK_MS);
      continue;
    }
    still = 0;
    from += whole;
    changed += appendMoved(path, late.subarray(0, whole), { move, os });
  }
  // A last line that never got its line break is kept as it was written.
  const rest = readAll(file, from);
  if (rest.length > 0) changed += appendMoved(path, rest, { move, os });
  return changed;
}

/** How many looks in a row must find no new line in the old file before it is left. */
const LATE_STILL_LOOKS = 3;
/** The pause between two looks at the old file. */
const LATE_LOOK_MS = 40;

function appendMoved(
  path: string,
  bytes: Uint8Array,
  { move, os }: { move: { from: string; to: string }; os: OsName },
): number {
  const moved = moveHistoryProjects(bytes, move, os);
  const target = Deno.openSync(path, { append: true });
  try {
    let written = 0;
    while (written < moved.bytes.length) {
      written += target.writeSync(moved.bytes.subarray(written));
    }
  } finally {
    target.close();
  }
  return moved.changed;
}

/**
 * Take claude's own lock on the history (a `<file>.lock` folder, as
 * proper-lockfile makes it), waiting briefly for a claude that holds it and
 * taking over one older than claude's stale limit, as claude would. Returns
 * its release; a lock that cannot be had is gone without (the write still
 * checks the file before it replaces it).
 */
function takeClaudesLock(path: string): () => void {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (true) {
    try {
      Deno.mkdirSync(lock);
      return () => {
        try {
          Deno.removeSync(lock);
        } catch {
          // Taken over as stale by a claude meanwhile: it is that claude's now.
        }
      };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) return () => {};
    }
    const mtime = lockTime(lock);
    if (mtime !== null && Date.now() - mtime > LOCK_STALE_MS) {
      try {
        Deno.removeSync(lock);
      } catch {
        // Another took it over first.
      }
      continue;
    }
    if (Date.now() >= deadline) return () => {};
    sleepSync(50);
  }
}

function lockTime(lock: string): number | null {
  try {
    return Deno.statSync(lock).mtime?.getTime() ?? null;
  } catch {
    return null;
  }
}
