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

import { withoutNewNonSessions } from "./print_session.ts";
import { isNoSessionTranscript } from "../../transcript/session_facts.ts";
import { findSessionCopies } from "../../core/session_copies.ts";
import type { AppContext } from "../context.ts";
import { argsPickSession, buildClaudeArgs, launchClaude } from "./launch.ts";
import { displayNameFor, type LaunchSettings } from "./launch_setup.ts";
import { changeRegistry } from "../registry.ts";
import { projectDirFor } from "../../core/paths.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import { findSession, namedSessionIds, type Session } from "../../core/registry.ts";
import { addAtTop, removeSession, swapGuid } from "../../core/registry_ops.ts";
import {
  type FolderSnapshot,
  newSessionBetween,
  snapshotFolder,
} from "../../core/session_files.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { markSessionInUse } from "../../store/resume_marker.ts";
import { followFork } from "./follow_fork.ts";
import { continuedThenCleared, forkedFrom } from "./continued_session.ts";

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
  /**
   * This launch gave the session its row (a new one, or the replaced one's);
   * false when `-c`/`-r` took claude into a session the list already had.
   */
  added: boolean;
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
  // Live to other windows from before its row exists until the launch is settled: claude writes
  // its own manifest only once it is up, and a window that saw the row meanwhile took the
  // session for a lost one (offered it to resume, to rename, to delete).
  const unmark = chosenId === null
    ? () => {}
    : markSessionInUse(ctx.paths, { guid: chosenId, cwd: dir });
  try {
    return await launchAndRegister(ctx, settings, {
      ...options,
      chosenId,
      before,
      folder,
      supportsName: features.name,
    });
  } finally {
    unmark();
  }
}

/** The launch itself, and the registry kept true to what it produced. */
async function launchAndRegister(
  ctx: AppContext,
  settings: LaunchSettings,
  options: FreshLaunchOptions & {
    chosenId: string | null;
    before: FolderSnapshot;
    folder: string;
    supportsName: boolean;
  },
): Promise<FreshLaunchOutcome> {
  const { dir, passArgs, chosenId, before, folder } = options;
  const join = ctx.paths.path.join;
  // Written ahead, whatever happens to claudecm: a session that replaces a lost one gets a row of
  // its own too, which takes the lost row's place once the session exists (settleReplacement).
  if (chosenId !== null) {
    await changeRegistry(
      ctx,
      (r) => addAtTop(r, { guid: chosenId, dir, desc: options.desc, tokens: "" }),
    );
  }
  const args = buildClaudeArgs(settings, {
    sessionArgs: chosenId === null ? [] : ["--session-id", chosenId],
    // `-c`/`-r` pick a session claudecm does not know yet: no name of this row goes to it.
    displayName: argsPickSession(passArgs) ? null : displayNameFor(settings, options.desc),
    supportsName: options.supportsName,
    passArgs,
  });
  let launch;
  try {
    launch = await launchClaude(ctx, { dir, args, expectedSessionId: chosenId ?? undefined });
  } catch (error) {
    // claude could not be started (gone from PATH, its folder removed): no session, no row.
    if (chosenId !== null) {
      await changeRegistry(ctx, (r) => removeSession(r, chosenId, { ifPresent: true }));
    }
    throw error;
  }
  const after = snapshotFolder(folder, join);
  if (chosenId !== null) {
    // A /cd inside claude moves the transcript to the new folder's key: the session exists,
    // found by its id (which crosses no other session's files, spec 14 rule 2); its row
    // follows the folder at the next run (relocation.ts).
    const cleared = clearedTo(launch.manifestSessionId, { chosenId, before, after });
    // What a /clear right before the exit leaves is no session: not registered, not named.
    const clearedKept = cleared !== null &&
      !isNoSessionTranscript(join(folder, `${cleared}.jsonl`));
    if (after.has(chosenId) || findSessionCopies(ctx.paths, chosenId).length > 0) {
      if (cleared !== null) {
        if (clearedKept) noteNewConversation(ctx, cleared);
      } else {
        warnOnDisagreement(ctx, {
          manifestId: launch.manifestSessionId,
          folderId: chosenId,
          chosen: chosenId,
        });
      }
      if (options.replaces !== undefined) await settleReplacement(ctx, chosenId, options);
      return { exitCode: launch.exitCode, sessionId: chosenId, added: true };
    }
    // A /clear before the first message: the session claude went on with is this launch's.
    if (clearedKept) {
      if (options.replaces === undefined) {
        await changeRegistry(
          ctx,
          (r) =>
            findSession(r, cleared) === undefined
              ? swapGuid(r, chosenId, cleared)
              : removeSession(r, chosenId, { ifPresent: true }),
        );
      } else {
        await changeRegistry(ctx, (r) => removeSession(r, chosenId, { ifPresent: true }));
        await register(ctx, cleared, options);
      }
      return { exitCode: launch.exitCode, sessionId: cleared, added: true };
    }
    // Claude exited before the first message: there is no session to keep (a replaced row stays
    // as it was).
    await changeRegistry(ctx, (r) => removeSession(r, chosenId, { ifPresent: true }));
    return { exitCode: launch.exitCode, sessionId: null, added: false };
  }
  const continued = continuedThenCleared(launch, { before, folder, passArgs, join });
  if (continued !== null) {
    // `-c` into a session, then a /clear: as after a resume, the session claude continued keeps
    // (or gets) its row and its post-exit; the new conversation is left for adopt.
    const { cleared } = continued;
    if (!isNoSessionTranscript(join(folder, `${cleared}.jsonl`))) noteNewConversation(ctx, cleared);
    const added = await register(ctx, continued.guid, options);
    return { exitCode: launch.exitCode, sessionId: continued.guid, added };
  }
  // Another window's `claude -p` answer in this folder is no session of this launch.
  const ours = withoutNewNonSessions(folder, join, { before, after });
  const sessionId = detectWithoutSessionId(ctx, {
    manifestId: launch.manifestSessionId,
    before,
    after: ours,
  });
  if (sessionId === null) return { exitCode: launch.exitCode, sessionId, added: false };
  // `-c` into a listed session that claude continued as a fork of it: the row follows, as for
  // any resume (spec 11.6.1).
  const predecessor = launch.exitCode === 0 ? forkedFrom(ctx, sessionId, options) : null;
  if (
    predecessor !== null &&
    await followFork(ctx, { dir, folder, guid: predecessor, fork: sessionId })
  ) {
    return { exitCode: launch.exitCode, sessionId, added: false };
  }
  const added = await register(ctx, sessionId, options);
  return { exitCode: launch.exitCode, sessionId, added };
}

/**
 * The session a `/clear` went on with: claude's manifest names a session
 * other than the chosen one, whose transcript is new in this folder
 * (2.1.332 moves to a new id at `/clear`); null otherwise.
 */
function clearedTo(
  manifestId: string | null,
  { chosenId, before, after }: { chosenId: string; before: FolderSnapshot; after: FolderSnapshot },
): string | null {
  if (manifestId === null || manifestId === chosenId) return null;
  return after.has(manifestId) && !before.has(manifestId) ? manifestId : null;
}

function noteNewConversation(ctx: AppContext, guid: string): void {
  ctx.out.line(
    `  Claude went on in a new conversation, ${guid} (a /clear); claudecm adopt adds it to the list.`,
    "cyan",
  );
}

/**
 * The session written ahead of its launch exists: it takes the replaced row's
 * place (name, folder, position) while that session is still lost; a
 * replaced session that came back meanwhile keeps its row, and this one
 * keeps the row it was given. Decided under the lock.
 */
function settleReplacement(
  ctx: AppContext,
  guid: string,
  options: FreshLaunchOptions,
): Promise<unknown> {
  return changeRegistry(ctx, (r) => {
    const replaced = options.replaces === undefined ? undefined : findSession(r, options.replaces);
    if (replaced === undefined || !stillLost(ctx, replaced)) return r;
    return swapGuid(removeSession(r, guid, { ifPresent: true }), replaced.guid, guid);
  });
}

/**
 * The row of a session that now exists: the replaced one's, or a new #1.
 * Decided under the lock: a row another window added meanwhile is kept as it is,
 * and a replaced session that came back to life meanwhile (a window on it, or its
 * transcript on disk again) keeps its row (issue 17 item 5).
 */
async function register(
  ctx: AppContext,
  guid: string,
  options: FreshLaunchOptions,
): Promise<boolean> {
  const { replaces } = options;
  let added = false;
  await changeRegistry(ctx, (r) => {
    // A line that does not parse may name it too (a `-c` into it): a second row would not do.
    added = !namedSessionIds(r).has(guid);
    if (!added) return r;
    const replaced = replaces === undefined ? undefined : findSession(r, replaces);
    if (replaced !== undefined && stillLost(ctx, replaced)) {
      return swapGuid(r, replaced.guid, guid);
    }
    return addAtTop(r, { guid, dir: options.dir, desc: options.desc, tokens: "" });
  });
  return added;
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
  { manifestId, before, after }: {
    manifestId: string | null;
    before: FolderSnapshot;
    after: FolderSnapshot;
  },
): string | null {
  const diffId = newSessionBetween(before, after);
  const chosen = manifestId !== null && after.has(manifestId) ? manifestId : diffId;
  if (chosen !== null) warnOnDisagreement(ctx, { manifestId, folderId: diffId, chosen });
  return chosen;
}

function warnOnDisagreement(
  ctx: AppContext,
  { manifestId, folderId, chosen }: {
    manifestId: string | null;
    folderId: string | null;
    chosen: string;
  },
): void {
  if (manifestId === null || folderId === null || manifestId === folderId) return;
  ctx.err.line(
    `  Launch detection disagrees: claude reported session ${manifestId}, the project folder ` +
      `shows ${folderId}. Registered ${chosen}.`,
    "yellow",
  );
}
