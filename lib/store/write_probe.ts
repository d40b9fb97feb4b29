/**
 * Whether a folder takes writes now, found by writing: permissions, a
 * read-only mount, a full disk and a quota all refuse a small file, and
 * nothing short of a write tells the last two apart from a writable folder.
 *
 * @module
 */

import { withPath } from "../core/errors.ts";
import { isWriteRefusal } from "../core/write_refusal.ts";
import { join } from "../core/path.ts";
import { removeDeadWritersTemps } from "./stale_temps.ts";

/** A few blocks' worth: a full disk refuses it, where an empty file may still be made. */
const PROBE_BYTES = 4096;
/** The probe's name before its `.tmp-<pid>`. */
const PROBE_NAME = ".write-probe";

/**
 * The error with which `folder` refuses a small write (its path attached),
 * or null when the write went through or failed for another reason (a
 * folder not made yet is its writer's to make). The probe is removed.
 */
export function writeRefusalIn(folder: string): unknown {
  // `.tmp-<pid>`: a run killed in between leaves a name the stale-temp sweeps know.
  const probe = join(folder, `${PROBE_NAME}.tmp-${Deno.pid}`);
  // Its writer sweeps them (issue 30 item 15): a killed run's probe goes with the next probe.
  removeDeadWritersTemps(folder, { named: (name) => name === PROBE_NAME });
  let before: Deno.FileInfo;
  try {
    before = Deno.statSync(folder);
  } catch {
    return null;
  }
  try {
    Deno.writeFileSync(probe, new Uint8Array(PROBE_BYTES));
    return null;
  } catch (error) {
    return isWriteRefusal(error) ? withPath(error, folder) : null;
  } finally {
    try {
      Deno.removeSync(probe);
    } catch {
      // Never made (the refusal), or already gone.
    }
    // A question answered No leaves the folder as it was, its time included.
    try {
      if (before.atime !== null && before.mtime !== null) {
        Deno.utimeSync(folder, before.atime, before.mtime);
      }
    } catch {
      // A folder that refused the probe may refuse this too: nothing of it changed then.
    }
  }
}
