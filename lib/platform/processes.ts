/**
 * What the OS says about a process (issue 32 item 2: `/proc` is read here,
 * not in the core that decides): whether a pid runs, when it started (to
 * tell a reused pid from the claude that wrote a manifest), and whose child
 * it is. Linux says all three in `/proc/<pid>/stat`; elsewhere only whether
 * a pid runs. `lib/core/pid_manifest.ts` decides from these facts.
 *
 * @module
 */

import type { ProcessFacts } from "../core/pid_manifest.ts";
import { hostOs } from "./os.ts";

/**
 * Whether a process with this pid exists: `Deno.kill` with signal 0 probes
 * without signalling (node:process would load Deno's Node layer, slowing
 * every start). A pid that cannot be a claude (not a positive integer) is
 * not alive. Only "no such process" means gone: EPERM means it exists under
 * someone else, and any other failure counts as alive too, because a
 * session wrongly thought running is only refused an action, while one
 * wrongly thought gone could be moved or deleted under a running claude.
 * A zombie (Linux) is gone: it has exited.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    Deno.kill(pid, 0);
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
  // A zombie has exited and only waits for its parent to reap it (a killed writer whose parent
  // went too waits for init): it writes nothing more. Linux says so in /proc.
  return hostOs !== "linux" || linuxStatField(pid, 3) !== "Z";
}

/** Field 22 of /proc/<pid>/stat (Linux), which tells a reused pid from the process; else null. */
export function processStart(pid: number): string | null {
  return hostOs === "linux" ? linuxStatField(pid, 22) : null;
}

/**
 * Whether process `pid` is `ancestor` or runs below it (a claude a shim
 * started); null where that cannot be told (no `/proc`: Windows, macOS).
 */
export function descendsFrom(pid: number, ancestor: number): boolean | null {
  if (hostOs !== "linux") return null;
  let current: number | null = pid;
  // A shim's claude is a child or a grandchild (cmd, sh, node); a few levels are plenty.
  for (let depth = 0; depth < 8 && current !== null && current > 1; depth++) {
    if (current === ancestor) return true;
    const parent = linuxStatField(current, 4);
    current = parent === null ? null : Number(parent);
  }
  return false;
}

/** This machine's processes, as the core's liveness decisions take them. */
export const hostProcesses: ProcessFacts = {
  isAlive: isProcessAlive,
  tellsStart: hostOs === "linux",
  startOf: processStart,
  self: Deno.pid,
};

/** Field `n` (1-based, as proc(5) counts) of `/proc/<pid>/stat`; null when unreadable. */
function linuxStatField(pid: number, n: number): string | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name (field 2) may hold spaces and parentheses; count from its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[n - 3] ?? null;
  } catch {
    return null;
  }
}
