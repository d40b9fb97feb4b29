/**
 * Fresh launch (spec 11.6.2 with DESIGN.md 5.1's write-ahead registration):
 * claudecm picks the session id, registers the row, then starts claude with
 * `--session-id`, so a crash of claudecm at any moment leaves the session
 * registered. After claude exits, whatever its exit code (spec 14.4), the row
 * stays if a transcript exists and goes if not. A claude too old for
 * `--session-id`, or pass-through arguments that pick the session
 * themselves, fall back to the set-diff plus the pid manifest.
 *
 * @module
 */

import { findSessionCopies } from "../../core/session_copies.ts";
import type { AppContext } from "../context.ts";
import { argsPickSession, buildClaudeArgs, launchClaude } from "./launch.ts";
import { displayNameFor, type LaunchSettings } from "./launch_setup.ts";
import { changeRegistry } from "../registry.ts";
import { projectDirFor } from "../../core/paths.ts";
import { isSessionLive } from "../../core/pid_manifest.ts";
import { findSession, type Session } from "../../core/registry.ts";
import { addAtTop, removeSession, swapGuid } from "../../core/registry_ops.ts";
import { newSessionBetween, snapshotFolder } from "../../core/session_files.ts";
import { locateTranscript } from "../../core/transcript_location.ts";

/** What to launch and how to register it. */
export interface FreshLaunchOptions {
  /** The project directory. */
  dir: string;
  /** The row's description, which `-n` carries too (`<machine> - <desc>`). */
  desc: string;
  /** Arguments for claude after claudecm's own. */
  passArgs: string[];
  /**
   * A registered session whose transcript is lost: the new session takes over
   * its row (place, name, folder) once it exists, instead of a new row; if
   * the launch produces nothing, the row stays as it was (spec 11.9 step 4).
   */
  replaces?: string;
}

/** How the launch ended. */
export interface FreshLaunchOutcome {
  exitCode: number;
  /** The session the launch produced and registered; null when there was none. */
  sessionId: string | null;
}

/** Launch a new session in `dir` and keep the registry true to what it produced. */
export async function freshLaunch(
  ctx: AppContext,
  settings: LaunchSettings,
  options: FreshLaunchOptions,
): Promise<FreshLaunchOutcome> {
  const { dir, passArgs } = options;
  const folder = projectDirFor(ctx.paths, dir);
  const join = ctx.paths.path.join;
  const before = snapshotFolder(folder, join);
  const features = await (await ctx.tools.claude()).features();
  const chosenId = features.sessionId && !argsPickSession(passArgs) ? crypto.randomUUID() : null;
  if (chosenId !== null && options.replaces === undefined) {
    await changeRegistry(
      ctx,
      (r) => addAtTop(r, { guid: chosenId, dir, desc: options.desc, tokens: "" }),
    );
  }
  const args = buildClaudeArgs(settings, {
    sessionArgs: chosenId === null ? [] : ["--session-id", chosenId],
    // `-c`/`-r` pick a session claudecm does not know yet: no name of this row goes to it.
    displayName: argsPickSession(passArgs) ? null : displayNameFor(settings, options.desc),
    supportsName: features.name,
    passArgs,
  });
  const launch = await launchClaude(ctx, {
    dir,
    args,
    expectedSessionId: chosenId ?? undefined,
  });
  const after = snapshotFolder(folder, join);
  if (chosenId !== null) {
    // A /cd inside claude moves the transcript to the new folder's key: the session exists,
    // found by its id (which crosses no other session's files, spec 14 rule 2); its row
    // follows the folder at the next run (relocation.ts).
    if (after.has(chosenId) || findSessionCopies(ctx.paths, chosenId).length > 0) {
      warnOnDisagreement(ctx, launch.manifestSessionId, chosenId, chosenId);
      if (options.replaces !== undefined) await register(ctx, chosenId, options);
      return { exitCode: launch.exitCode, sessionId: chosenId };
    }
    if (options.replaces !== undefined) return { exitCode: launch.exitCode, sessionId: null };
    // Claude exited before the first message: there is no session to keep.
    await changeRegistry(ctx, (r) => removeSession(r, chosenId, { ifPresent: true }));
    return { exitCode: launch.exitCode, sessionId: null };
  }
  const sessionId = detectWithoutSessionId(ctx, launch.manifestSessionId, before, after);
  if (sessionId !== null) await register(ctx, sessionId, options);
  return { exitCode: launch.exitCode, sessionId };
}

/**
 * The row of a session that now exists: the replaced one's, or a new #1.
 * Decided under the lock: a row another window added meanwhile is kept as it is,
 * and a replaced session that came back to life meanwhile (a window on it, or its
 * transcript on disk again) keeps its row (issue 17 item 5).
 */
function register(ctx: AppContext, guid: string, options: FreshLaunchOptions): Promise<unknown> {
  const { replaces } = options;
  return changeRegistry(ctx, (r) => {
    if (findSession(r, guid) !== undefined) return r;
    const replaced = replaces === undefined ? undefined : findSession(r, replaces);
    if (replaced !== undefined && stillLost(ctx, replaced)) {
      return swapGuid(r, replaced.guid, guid);
    }
    return addAtTop(r, { guid, dir: options.dir, desc: options.desc, tokens: "" });
  });
}

/** Whether `session` is still lost: no claude has it open and its transcript is found nowhere. */
function stillLost(ctx: AppContext, session: Session): boolean {
  return !isSessionLive(ctx.paths, session.guid) &&
    locateTranscript(ctx.paths, session).status === "missing";
}

/**
 * The fallback detection: the manifest's session when its transcript is in
 * this project folder (it may be an existing session that `--continue`
 * picked), else the one new transcript of the set-diff. Only this folder is
 * ever looked at (spec 14 rule 2).
 */
function detectWithoutSessionId(
  ctx: AppContext,
  manifestId: string | null,
  before: Map<string, number>,
  after: Map<string, number>,
): string | null {
  const diffId = newSessionBetween(before, after);
  const chosen = manifestId !== null && after.has(manifestId) ? manifestId : diffId;
  if (chosen !== null) warnOnDisagreement(ctx, manifestId, diffId, chosen);
  return chosen;
}

function warnOnDisagreement(
  ctx: AppContext,
  manifestId: string | null,
  folderId: string | null,
  chosen: string,
): void {
  if (manifestId === null || folderId === null || manifestId === folderId) return;
  ctx.err.line(
    `  Launch detection disagrees: claude reported session ${manifestId}, the project folder ` +
      `shows ${folderId}. Registered ${chosen}.`,
    "yellow",
  );
}
