/**
 * Windows holds a file back for a moment while another process replaces it
 * or a virus scanner reads it: opening a file in the middle of another
 * process's rename over it, or renaming over a file a reader has open,
 * fails with "access denied" (a sharing violation), and a few milliseconds
 * later works. Several claudecm windows read and replace sessions.txt all
 * the time, so on Windows such a failure is tried again for about half a
 * second before it counts. Elsewhere a permission error is what it says.
 *
 * @module
 */

import { sleepSync } from "../core/sleep_sync.ts";
import { hostOs } from "../platform/os.ts";

/** The pauses between tries, in ms: about half a second in all. */
const PAUSES_MS = [5, 10, 20, 40, 80, 160, 200];

/** Run `action`; on Windows, a busy-file failure runs it again after a pause, a few times. */
export function retryWhileBusy<T>(action: () => T, os: string = hostOs): T {
  for (const pause of os === "windows" ? PAUSES_MS : []) {
    try {
      return action();
    } catch (error) {
      if (!(error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.Busy)) {
        throw error;
      }
    }
    sleepSync(pause);
  }
  return action();
}
