/**
 * A file written as a stream and put in place whole: the text goes to a
 * temporary file beside the target (`.tmp-<pid>`, as writeFileAtomic names
 * it), which is flushed and then renamed over the target, or, when an
 * existing file must not be replaced, hard-linked to the target's name (the
 * link fails if a file took the name meanwhile, so nothing is ever replaced
 * unasked). A run that fails or is cancelled leaves the target untouched.
 *
 * @module
 */

import { withPath } from "../core/errors.ts";
import { isNotFound } from "../core/fs_checks.ts";
import { realTarget } from "./atomic_write.ts";
import { removeDeadWritersTempsOf } from "./stale_temps.ts";
import { retryWhileBusy } from "./windows_busy.ts";

/** A file being written. */
export interface StreamedFile {
  write(text: string): void;
  /** Bytes written so far. */
  readonly bytes: number;
  /** Put it in place; "exists" when `replace` is false and the target is there (nothing changed). */
  commit(options: { replace: boolean }): "written" | "exists";
  /** Drop the temporary file; the target stays as it was. */
  abort(): void;
}

/** Writes are gathered up to this many characters before they reach the file. */
const FLUSH_CHARS = 256 * 1024;

/** Start writing `path` through a temporary file beside it. */
export function openStreamedFile(path: string): StreamedFile {
  const target = realTarget(path);
  const tmpPath = `${target}.tmp-${Deno.pid}`;
  removeDeadWritersTempsOf(target); // A killed run's half-written file (issue 30 item 15).
  let file: Deno.FsFile | null;
  try {
    file = Deno.openSync(tmpPath, { write: true, createNew: true });
  } catch (error) {
    throw withPath(error, tmpPath);
  }
  const encoder = new TextEncoder();
  let pending: string[] = [];
  let pendingChars = 0;
  let bytes = 0;
  const flush = () => {
    if (pendingChars === 0 || file === null) return;
    const chunk = encoder.encode(pending.join(""));
    pending = [];
    pendingChars = 0;
    let written = 0;
    try {
      while (written < chunk.length) written += file.writeSync(chunk.subarray(written));
    } catch (error) {
      throw withPath(error, target);
    }
    bytes += chunk.length;
  };
  const drop = () => {
    try {
      file?.close();
    } catch {
      // Closed already.
    }
    file = null;
    try {
      Deno.removeSync(tmpPath);
    } catch {
      // Never made, or gone.
    }
  };
  return {
    write(text) {
      pending.push(text);
      pendingChars += text.length;
      if (pendingChars >= FLUSH_CHARS) flush();
    },
    get bytes() {
      return bytes + pendingChars;
    },
    commit({ replace }) {
      try {
        flush();
        file!.syncSync();
        file!.close();
        file = null;
        if (replace) {
          retryWhileBusy(() => Deno.renameSync(tmpPath, target));
          return "written";
        }
        return linkInPlace(tmpPath, target);
      } catch (error) {
        drop();
        throw withPath(error, target);
      } finally {
        drop();
      }
    },
    abort: drop,
  };
}

/** Give the temporary file the target's name unless a file has it; the temporary name is dropped. */
function linkInPlace(tmpPath: string, target: string): "written" | "exists" {
  try {
    Deno.linkSync(tmpPath, target);
    return "written";
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return "exists";
    // A file system without hard links: look, then rename (the window is the user's own).
    try {
      Deno.lstatSync(target);
      return "exists";
    } catch (missing) {
      if (!isNotFound(missing)) throw missing;
    }
    retryWhileBusy(() => Deno.renameSync(tmpPath, target));
    return "written";
  }
}
