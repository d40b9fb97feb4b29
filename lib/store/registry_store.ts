/**
 * Reading and writing `sessions.txt`. {@linkcode updateRegistry} is the one
 * registry writer: lock, read, apply an operation, write temp, compare, rename,
 * unlock (spec 5.1, DESIGN.md 13).
 *
 * @module
 */

import { UserError } from "../core/errors.ts";
import { decodeLossless, encodeLossless } from "../core/lossless_text.ts";
import { equalBytes } from "../core/bytes.ts";
import { NotRegularFile, readRegularBytes } from "../core/fs_checks.ts";
import type { Paths } from "../core/paths.ts";
import { parseRegistry, type Registry, serializeRegistry } from "../core/registry.ts";
import type { LockOptions } from "./lock.ts";
import { retryWhileBusy } from "./windows_busy.ts";

/**
 * A change to the registry: given the registry as it is on disk now, return
 * the new one (compose the operations of `lib/core/registry_ops.ts`). It may
 * be called more than once in one update, each time on a fresher registry, so
 * it decides everything from the registry it is given (never from a list read
 * earlier) and resets any result it reports before deciding it again.
 */
export type RegistryOperation = (registry: Registry) => Registry;

/** How often an update re-reads a file that keeps changing under it before giving up. */
const MAX_ATTEMPTS = 20;

/** Read the registry without the lock (spec 14.1: renames make reads safe). */
export function readRegistry(paths: Paths): Registry {
  return parseRegistry(decodeLossless(readRegistryBytes(paths)));
}

/**
 * Apply `operation` to the registry as it is on disk under the lock and write
 * the result atomically. Returns the registry as written. The write is a
 * compare-and-swap: right before the rename the file must still hold the
 * bytes the operation was applied to, checked and renamed under the swap
 * lock ({@linkcode swapLockPath}); if another writer changed it (one that
 * stalled past the lock timeout, or one that went ahead without the lock),
 * the file is read again and the operation re-applied, so no writer's update
 * is lost to a stale one. When `operation` throws, nothing is written; when it
 * leaves the file's content as it was, the file is not rewritten at all.
 */
export async function updateRegistry(
  paths: Paths,
  operation: RegistryOperation,
  options: Pick<LockOptions, "onTimeout" | "timeoutMs"> = {},
): Promise<Registry> {
  // Loaded here: most runs only read the registry (list --json starts near the floor).
  const [
    { withFileLock, withFileLockSync },
    { realTarget, writeFileAtomic },
    { removeDeadWritersTempsOf },
  ] = await Promise.all([
    import("./lock.ts"),
    import("./atomic_write.ts"),
    import("./stale_temps.ts"),
  ]);
  Deno.mkdirSync(paths.cmHome, { recursive: true });
  /** Run `work` holding the swap lock; nothing is written when it cannot be had. */
  const swapping = <T>(work: () => T): T => {
    const done = withFileLockSync(swapLockPath(paths), () => ({ value: work() }), {
      timeoutMs: SWAP_WAIT_MS,
      intervalMs: 5,
    });
    if (done === undefined) {
      throw new UserError(
        `another claudecm held ${swapLockPath(paths)} for ${SWAP_WAIT_MS / 1000} s while ` +
          "saving the session list; nothing was saved, try again",
      );
    }
    return done.value;
  };
  return await withFileLock(paths.lockFile, ({ held }) => {
    // Spec 3's sessions.txt.tmp, beside the real file when sessions.txt is a link.
    // Unlocked writers must not share a temp file with the lock holder; a killed one's is swept.
    const tmpSuffix = held ? ".tmp" : `.tmp-${Deno.pid}`;
    removeDeadWritersTempsOf(realTarget(paths.registryFile));
    const update = (swap: <T>(work: () => T) => T): Registry => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const read = readRegistryBytes(paths);
        const before = decodeLossless(read);
        const updated = operation(parseRegistry(before));
        const after = serializeRegistry(updated);
        if (after === before) return updated;
        // The compare and the rename as one step: two writers that both passed the compare
        // would each rename, and the first one's update would be lost.
        const swapped = swap(() =>
          writeFileAtomic(paths.registryFile, encodeLossless(after), {
            tmpSuffix,
            beforeRename: () => equalBytes(readRegistryBytes(paths), read),
          })
        );
        if (swapped) return updated;
      }
      throw new UserError(
        `${paths.registryFile} kept changing while claudecm was saving (another program ` +
          "rewriting it?); nothing was saved, try again",
      );
    };
    // Every writer, the lock's holder too, holds the swap lock for its whole read, change and
    // write: writers that timed out go one at a time, and a holder taking the swap lock for
    // the compare alone was starved by them (its read went stale again and again). The
    // compare still guards against a writer that is not claudecm.
    return swapping(() => update((work) => work()));
  }, options);
}

/** How long a writer waits for the swap lock, which is held only while a write is made. */
const SWAP_WAIT_MS = 10_000;

/**
 * The lock every registry writer holds while it compares and renames, the
 * lock's holder and writers that went ahead after the lock timeout alike
 * (DESIGN.md 13): after a timeout, exactly one writer at a time replaces the
 * file, and the others re-read and re-apply.
 */
export function swapLockPath(paths: Paths): string {
  return `${paths.registryFile}.swap.lock`;
}

/**
 * The file's bytes; a missing file reads as empty. Only a regular file is
 * read: a pipe or a device there would hang every command, read-only ones too.
 */
export function readRegistryBytes(paths: Paths): Uint8Array {
  try {
    return retryWhileBusy(() => readRegularBytes(paths.registryFile, REGISTRY_MAX_BYTES));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return new Uint8Array();
    if (!(error instanceof NotRegularFile)) throw error;
    const what = error.what.startsWith("a folder") ? "a folder" : error.what;
    throw new UserError(
      `${paths.registryFile} is ${what} where claudecm needs a file; move it away`,
    );
  }
}

/** Far more rows than anyone keeps (a row is about 150 bytes): past it, no registry read. */
const REGISTRY_MAX_BYTES = 256 * 1024 * 1024;
