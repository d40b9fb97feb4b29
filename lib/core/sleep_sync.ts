/**
 * A pause that blocks the thread, for the few synchronous waits claudecm
 * makes (a file Windows holds back for a moment, a lock another claudecm
 * holds): the callers are synchronous all the way up.
 *
 * @module
 */

/** Block this thread for `ms` milliseconds. */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
