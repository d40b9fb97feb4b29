/**
 * The one launch path (spec 11.6): start claude on the terminal in a
 * project directory and, while it runs, read its pid manifest, claude's own
 * word on which session it is on (layer 1). The fresh-launch and resume
 * flows build the arguments; nothing else starts an interactive claude.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { LaunchSettings } from "./launch_setup.ts";
import { sameFolder } from "../../core/folder_match.ts";
import { holdEndingSignals } from "../../platform/ending_signal.ts";
import { listPidManifests, type PidManifest, readPidManifest } from "../../core/pid_manifest.ts";
import { descendsFrom } from "../../platform/processes.ts";

/** What to launch. */
export interface LaunchRequest {
  /** The project directory, claude's cwd. */
  dir: string;
  /** Every argument, permission flags included. */
  args: string[];
  /**
   * The session claude should be on, when known. Where the manifest is not
   * under the child's pid (a `.cmd` shim on Windows runs claude as a
   * grandchild), it is found by this id instead; without one (`-c`), by the
   * folder it runs in, when one new claude alone runs there.
   */
  expectedSessionId?: string;
}

/** How the launch ended. */
export interface LaunchOutcome {
  exitCode: number;
  /** The session id the manifest last reported; null when none was read. */
  manifestSessionId: string | null;
  /** The session id the manifest first reported (claude's session before any `/clear`). */
  firstManifestSessionId: string | null;
}

/** How often the manifest is read while claude runs. */
const MANIFEST_POLL_MS = 250;

/** Run claude interactively until it exits. */
export async function launchClaude(
  ctx: AppContext,
  request: LaunchRequest,
): Promise<LaunchOutcome> {
  const claude = await ctx.tools.claude();
  // Another window's claude has its manifest there before this launch: it must not be taken
  // for this claude's.
  const otherWindows = new Set(listPidManifests(ctx.paths).map((manifest) => manifest.pid));
  const child = claude.launch(request.args, { cwd: request.dir });
  const launchedAt = Date.now();
  let manifestSessionId: string | null = null;
  let firstManifestSessionId: string | null = null;
  // Through a shim (claude.cmd, a wrapper script) claude's pid is not the child's: its manifest
  // is found once by the session it starts on, then followed by its pid, since a /clear changes
  // the session it names.
  let claudePid = child.pid;
  const readManifest = () => {
    let manifest = readPidManifest(ctx.paths, claudePid);
    if (manifest === null) {
      manifest = manifestBehindShim(ctx, request, {
        childPid: child.pid,
        otherWindows,
        launchedAt,
      });
      if (manifest !== null) claudePid = manifest.pid;
    }
    // Claude rewrites its manifest while it runs; the latest word wins.
    if (manifest !== null) {
      manifestSessionId = manifest.sessionId;
      firstManifestSessionId ??= manifest.sessionId;
    }
  };
  const timer = setInterval(readManifest, MANIFEST_POLL_MS);
  // Behind a shim that does not exec, a SIGTERM passed on to the child ends the shim alone:
  // claude gets it too, once its manifest has shown which process it is.
  const releaseEnding = holdEndingSignals((signal) => {
    readManifest();
    if (claudePid === child.pid) return;
    try {
      Deno.kill(claudePid, signal);
    } catch {
      // Already gone.
    }
  });
  try {
    const exitCode = await child.status;
    return { exitCode, manifestSessionId, firstManifestSessionId };
  } finally {
    clearInterval(timer);
    releaseEnding();
  }
}

/** How long a claude gets to show its manifest under the child's own pid before a shim is assumed. */
const SHIM_GRACE_MS = 2_000;

/**
 * The manifest of the claude a shim started: a new one (not another
 * window's) on the expected session, or, without one, the one new claude
 * running in the launch's folder that runs below the child (where that can
 * be told; elsewhere, once the child's own pid has had time to show one);
 * null while none, or more than one, is.
 */
function manifestBehindShim(
  ctx: AppContext,
  request: LaunchRequest,
  { childPid, otherWindows, launchedAt }: {
    childPid: number;
    otherWindows: ReadonlySet<number>;
    launchedAt: number;
  },
): PidManifest | null {
  const fresh = listPidManifests(ctx.paths).filter((m) => !otherWindows.has(m.pid));
  if (request.expectedSessionId !== undefined) {
    const ours = fresh.filter((m) => m.sessionId === request.expectedSessionId);
    return ours.length === 1 ? ours[0] : null;
  }
  // Another window may start a claude in this folder meanwhile: only one below ours is ours.
  const ours = fresh.filter((m) =>
    sameFolder(m.cwd, request.dir, ctx.os) &&
    (descendsFrom(m.pid, childPid) ?? Date.now() - launchedAt >= SHIM_GRACE_MS)
  );
  return ours.length === 1 ? ours[0] : null;
}

/** What {@linkcode buildClaudeArgs} puts together. */
export interface ClaudeArgsOptions {
  /** `--session-id ID`, `--resume ID`, or nothing. */
  sessionArgs: string[];
  /** `<machine> - <name>`; null when the session has no name of its own (launch_name.ts). */
  displayName: string | null;
  /** Whether this claude accepts `-n` (feature-detected). */
  supportsName: boolean;
  /** The user's arguments for claude. */
  passArgs: readonly string[];
}

/**
 * claudecm's arguments, then the user's: the permission flags unless the
 * user chose a permission mode, the session arguments, and `-n <display
 * name>` where the session has a name, claude supports it and the user did
 * not name the session.
 */
export function buildClaudeArgs(settings: LaunchSettings, options: ClaudeArgsOptions): string[] {
  const { passArgs } = options;
  return [
    ...(argsSetPermissions(passArgs) ? [] : settings.permissionArgs),
    ...options.sessionArgs,
    ...(options.displayName !== null && options.supportsName && !argsNameSession(passArgs)
      ? ["-n", options.displayName]
      : []),
    ...passArgs,
  ];
}

/**
 * Whether pass-through arguments make claude run the session somewhere else
 * and return at once: in the background (`--bg`), in the cloud (`--cloud`,
 * `--environment`), in the desktop app, or a teleport (claude 2.1.332). Such a session has no
 * transcript here when claude exits, and `--bg` ignores `--session-id`.
 */
export function argsRunElsewhere(args: readonly string[]): boolean {
  return args.some((arg) =>
    ["--bg", "--background", "--desktop"].includes(arg) ||
    /^--(cloud|teleport|environment)(=|$)/.test(arg)
  );
}

/** Whether pass-through arguments already choose the session (DESIGN.md 5.1). */
export function argsPickSession(args: readonly string[]): boolean {
  return args.some((arg) =>
    ["-r", "--resume", "-c", "--continue", "--session-id", "--from-pr"].includes(arg) ||
    /^--(resume|session-id|from-pr)=/.test(arg)
  );
}

function argsNameSession(args: readonly string[]): boolean {
  return args.some((arg) => arg === "-n" || arg === "--name" || arg.startsWith("--name="));
}

function argsSetPermissions(args: readonly string[]): boolean {
  return args.some((arg) =>
    arg === "--dangerously-skip-permissions" || arg === "--permission-mode" ||
    arg.startsWith("--permission-mode=")
  );
}
