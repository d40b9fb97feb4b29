/**
 * Ending a child's whole process tree, and passing Ctrl-C on to a child that
 * runs in a process group of its own (spawn.ts starts timed captured runs
 * that way, so a timeout can end everything they started).
 *
 * @module
 */

import type { OsName } from "../core/paths.ts";

/** How long a timed-out tree gets between the polite signal and SIGKILL. */
const KILL_GRACE_MS = 1_000;

/** Ends one child's process tree. */
export interface TreeKiller {
  /** Start ending the tree (on POSIX politely first, SIGKILL after a grace period). */
  stop(): void;
  /** End whatever is left of it at once. */
  finish(): void;
}

/**
 * Ending the process tree of `child`: on POSIX its process group (the caller
 * starts the child detached, so it leads one), SIGTERM first and SIGKILL
 * after a grace period; on Windows `taskkill /T /F`, which walks the tree by
 * parent pid.
 */
export function treeKiller(child: Deno.ChildProcess, os: OsName): TreeKiller {
  const { pid } = child;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  if (os === "windows") {
    // The child itself is ended after taskkill, which finds its descendants through it.
    const killChild = () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const taskkill = () => {
      // Should taskkill itself hang, the child is ended all the same.
      graceTimer = setTimeout(killChild, KILL_GRACE_MS);
      try {
        new Deno.Command("taskkill", {
          args: ["/T", "/F", "/PID", String(pid)],
          stdin: "null",
          stdout: "null",
          stderr: "null",
        }).spawn().status.then(killChild, killChild);
      } catch {
        killChild();
      }
    };
    return {
      stop: taskkill,
      finish: () => {
        clearTimeout(graceTimer);
        killChild();
      },
    };
  }
  return {
    stop() {
      signalGroup(pid, "SIGTERM");
      graceTimer = setTimeout(() => signalGroup(pid, "SIGKILL"), KILL_GRACE_MS);
    },
    finish() {
      clearTimeout(graceTimer);
      signalGroup(pid, "SIGKILL");
    },
  };
}

/** Signal the process group led by `pid`, or `pid` alone when it leads none. */
function signalGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    try {
      Deno.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** Options for {@linkcode passOnInterrupt}. */
export interface PassOnOptions {
  /** Whether claudecm itself ignores Ctrl-C now (an interactive claude runs). */
  ignoredHere: () => boolean;
  /** Called after the Ctrl-C went to the child, unless claudecm ignores Ctrl-C now. */
  onInterrupt: () => void;
}

/**
 * A child in its own process group does not get the terminal's Ctrl-C. Until
 * the returned function is called, pass it on to the child's group, then
 * tell the caller, which ends the run as cancelled (DESIGN.md 5.14) once the
 * child is gone, so what the run left behind can be cleaned up first.
 */
export function passOnInterrupt(pid: number, options: PassOnOptions): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    Deno.removeSignalListener("SIGINT", onInterrupt);
  };
  const onInterrupt = () => {
    signalGroup(pid, "SIGINT");
    release();
    if (!options.ignoredHere()) options.onInterrupt();
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  return release;
}
