/**
 * An exclusive OS-level file lock in the manner of git's `index.lock`, except
 * that the OS releases it when the holder dies, so a crashed claudecm never
 * leaves a stale lock behind (spec 5.1).
 *
 * @module
 */

import { sleepSync } from "../core/sleep_sync.ts";

/** Options for {@linkcode withFileLock}. */
export interface LockOptions {
  /** How long to keep retrying before proceeding without the lock. */
  timeoutMs?: number;
  /** Pause between attempts. */
  intervalMs?: number;
  /** Told once when the lock could not be had and the work goes ahead unlocked. */
  onTimeout?: (lockPath: string) => void;
}

/** What the locked work was told about the lock. */
export interface LockState {
  /** False when the wait timed out and the work runs without the lock. */
  held: boolean;
}

/**
 * Run `work` while holding an exclusive lock on `lockPath`, retrying every
 * 200 ms for up to 10 s. On timeout, `onTimeout` is called and `work` runs
 * anyway (last write wins), as the spec prefers a warning to a blocked user.
 */
export async function withFileLock<T>(
  lockPath: string,
  work: (state: LockState) => T | Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 200, onTimeout } = options;
  const file = await Deno.open(lockPath, { read: true, write: true, create: true });
  try {
    const deadline = Date.now() + timeoutMs;
    let held = await file.tryLock(true);
    while (!held && Date.now() < deadline) {
      await sleep(intervalMs);
      held = await file.tryLock(true);
    }
    if (!held) onTimeout?.(lockPath);
    return await work({ held });
  } finally {
    // Closing the handle releases the lock.
    file.close();
  }
}

/**
 * Run `work` holding the exclusive lock on `lockPath`, for synchronous
 * callers: waits for it up to `timeoutMs`, then gives up without running
 * `work` (undefined) while another process keeps it.
 */
export function withFileLockSync<T>(
  lockPath: string,
  work: () => T,
  { timeoutMs = 3_000, intervalMs = 50 }: Pick<LockOptions, "timeoutMs" | "intervalMs"> = {},
): T | undefined {
  const file = Deno.openSync(lockPath, { read: true, write: true, create: true });
  try {
    const deadline = Date.now() + timeoutMs;
    let held = file.tryLockSync(true);
    while (!held && Date.now() < deadline) {
      sleepSync(intervalMs);
      held = file.tryLockSync(true);
    }
    return held ? work() : undefined;
  } finally {
    // Closing the handle releases the lock.
    file.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
