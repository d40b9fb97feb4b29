/**
 * The one resume path (spec 11.6.1 and 11.9): every way of resuming a
 * session (`resume N`, `claudecm N`, a pass-through `-r`/`--resume`, and the
 * menus) calls {@linkcode resumeSession}. Before the launch, a session
 * with copies in several project folders is left with one (the newest
 * content, or the user's pick: `session/transcript_copies.ts`). Claude can fork a
 * resumed session into a new transcript; when it does, the registry row
 * follows the fork (tokens reset) and the predecessor moves to
 * `~/.claudecm/backup/<leaf>/`, re-checked under the lock.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { buildClaudeArgs, launchClaude, type LaunchOutcome } from "../launch/launch.ts";
import { transcriptTitle } from "../launch/launch_name.ts";
import { displayNameFor, type LaunchSettings } from "../launch/launch_setup.ts";
import { followFolderMoves } from "./follow_folder.ts";
import { followFork } from "../launch/follow_fork.ts";
import { handedOn } from "./handed_on.ts";
import { finishResume } from "../after_exit/resume_exit.ts";
import type { ResumeOutcome } from "../after_exit/resume_model.ts";
import { classifyNext } from "../session/next_session.ts";
import { markSessionInUse } from "../../store/resume_marker.ts";
import { keepOneTranscriptCopy } from "../session/transcript_copies.ts";
import { offerVaultRestore } from "../restore/restore.ts";
import { ExitCode } from "../../core/errors.ts";
import { projectDirFor } from "../../core/paths.ts";
import { withoutNewNonSessions } from "../launch/print_session.ts";
import { isSessionLive, liveSessionIds } from "../../platform/live_sessions.ts";
import { stampFile } from "../../core/preconditions.ts";
import { probePath } from "../../core/fs_checks.ts";
import { findSession, type Session } from "../../core/registry.ts";
import { type FolderSnapshot, forkAfterResume, snapshotFolder } from "../../core/session_files.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { endsWithExitCommand } from "../../transcript/tail.ts";
import { askYesNo } from "../../ui/prompt.ts";

/** What {@linkcode resumeSession} resumes, and how. */
export interface ResumeRequest {
  settings: LaunchSettings;
  /** The session: its registry row, or (for an id the registry lacks) one made up for it. */
  session: Session;
  /** Whether `session` is a registry row. */
  registered: boolean;
  /**
   * Where claude runs: the session's DIR unless given (spec 11.9). A
   * pass-through `-r` runs where the user is, as claude itself would.
   */
  launchDir?: string;
  /** More arguments for claude (pass-through), after claudecm's own. */
  extraArgs?: string[];
  /** With `--fork-session` in `extraArgs`: the name of the branch's own row (`claudecm fork`). */
  branchName?: string;
}

/**
 * Resume a session, then run what follows its exit; returns the command's
 * exit code. Every caller gets the same checks: a registered row follows
 * its folder (a `/cd` claude made; a folder that is gone asks where it went,
 * issue 21); claude's directory must be there; a session open in another claude window is resumed only when the
 * user says so (DESIGN.md 5.8: both windows would append to one transcript,
 * interleaved); a registered row moves to #1 only when the resume ran (see
 * {@linkcode ResumeOutcome.ran}): a cancelled or refused one leaves the list
 * as it was.
 */
export async function resumeSession(ctx: AppContext, request: ResumeRequest): Promise<number> {
  return (await resumeSessionReporting(ctx, request)).exitCode;
}

/** A resume's exit code, and how claude ended: null when it was not launched. */
export interface ResumeReport {
  exitCode: number;
  outcome: ResumeOutcome | null;
}

/** {@linkcode resumeSession}, telling what the launch did too (`fork --json` reports it). */
export async function resumeSessionReporting(
  ctx: AppContext,
  request: ResumeRequest,
): Promise<ResumeReport> {
  const { settings, registered } = request;
  const notLaunched = { exitCode: ExitCode.failure, outcome: null };
  // A row follows its folder (issue 21) on every path, whenever the caller read it.
  const session = registered ? await followFolderMoves(ctx, request.session) : request.session;
  if (session === null) return notLaunched;
  const dir = request.launchDir ?? session.dir;
  if (!directoryReachable(ctx, dir)) return notLaunched;
  if (isSessionLive(ctx.paths, session.guid) && !confirmLiveResume(ctx, session)) {
    ctx.out.line("  Not resumed.");
    return notLaunched;
  }
  if (!await keepOneTranscriptCopy(ctx, { ...session, registered })) {
    ctx.out.line("  Not resumed.");
    return notLaunched;
  }
  // A transcript Claude Code deleted comes back from the vault before claude is asked for it.
  if (registered && await offerVaultRestore(ctx, session) === "failed") return notLaunched;
  // Live to other windows until this one is done with it, whatever id claude forks to.
  const unmark = markSessionInUse(ctx.paths, { guid: session.guid, cwd: dir });
  try {
    const outcome = await resumeWithForkDetection(ctx, settings, {
      dir,
      guid: session.guid,
      displayName: launchName(ctx, { ...request, session }),
      extraArgs: request.extraArgs,
    });
    await finishResume(ctx, {
      settings,
      session,
      registered,
      outcome,
      branchName: request.branchName,
    });
    return { exitCode: outcome.exitCode === 0 ? ExitCode.ok : ExitCode.failure, outcome };
  } finally {
    unmark();
  }
}

/** The launch of one resume. */
export interface ResumeOptions {
  /** claude's cwd. */
  dir: string;
  guid: string;
  /** `<machine> - <name>`; null for a session with no name of its own. */
  displayName: string | null;
  /** More arguments for claude (pass-through), after claudecm's own. */
  extraArgs?: string[];
}

/** Resume `guid` in `dir`, retrying a refused `/exit` tail and following a fork. */
async function resumeWithForkDetection(
  ctx: AppContext,
  settings: LaunchSettings,
  options: ResumeOptions,
): Promise<ResumeOutcome> {
  const { dir, guid } = options;
  const folder = projectDirFor(ctx.paths, dir);
  const join = ctx.paths.path.join;
  const before = snapshotFolder(folder, join);
  // Claude resumes a transcript wherever it is, not only in the folder it runs in.
  const located = locateTranscript(ctx.paths, { guid, dir });
  const transcript = located.status === "found" ? located.path : null;
  const stampBefore = transcriptStamp(transcript);
  const sizeBefore = transcript === null ? 0 : stampFile(transcript)?.size ?? 0;
  const features = await (await ctx.tools.claude()).features();
  const args = buildClaudeArgs(settings, {
    sessionArgs: ["--resume", guid],
    displayName: options.displayName,
    supportsName: features.name,
    passArgs: options.extraArgs ?? [],
  });
  let launch = await launchClaude(ctx, { dir, args, expectedSessionId: guid });
  if (
    launch.exitCode !== 0 && transcript !== null && endsWithExitCommand(transcript) &&
    askRetry(ctx)
  ) {
    launch = await launchClaude(ctx, {
      dir,
      args: [...args, "please continue"],
      expectedSessionId: guid,
    });
  }
  // A failed resume must not adopt whatever transcript is newest (spec 11.6.1 step 4).
  const after = snapshotFolder(folder, join);
  const fork = detectFork(guid, {
    launch,
    before,
    after: withoutOthers(ctx, { guid, dir, before, after }),
  }) ??
    (launch.exitCode === 0 ? handedOn(ctx, { guid, dir, transcript, from: sizeBefore }) : null);
  const next = classifyNext(fork, {
    nextPath: join(folder, `${fork}.jsonl`),
    resumedPath: transcript,
    resumedGuid: guid,
    extraArgs: options.extraArgs ?? [],
  });
  const outcome = { exitCode: launch.exitCode, effectiveGuid: guid, ran: true };
  if (next.kind === "same") {
    const ran = launch.exitCode === 0 || transcriptStamp(transcript) !== stampBefore;
    return { ...outcome, ran };
  }
  if (next.kind === "cleared") return { ...outcome, newConversation: next.guid };
  if (launch.exitCode !== 0) return { ...outcome, unfollowedFork: next.guid };
  if (next.kind === "branch") {
    const recorded = next.recorded === true ? { branchRecorded: true } : {};
    return { ...outcome, effectiveGuid: next.guid, branch: true, ...recorded };
  }
  // The predecessor moves from where it is, which is not always the folder claude ran in.
  const predecessorFolder = transcript === null ? folder : ctx.paths.path.dirname(transcript);
  const followed = await followFork(ctx, { dir, folder: predecessorFolder, guid, fork: next.guid });
  return { ...outcome, effectiveGuid: followed ? next.guid : guid };
}

/**
 * `after` without the sessions that are surely not this resume's fork: those
 * in the list (another window's `new` registers its session before claude
 * starts) and those open in another claude. Without them, a session another
 * window started in this folder while claude ran passed for a fork, and the
 * row was pointed at it.
 */
function withoutOthers(
  ctx: AppContext,
  { guid, dir, before, after }: {
    guid: string;
    dir: string;
    before: FolderSnapshot;
    after: FolderSnapshot;
  },
): FolderSnapshot {
  // Nothing new in the folder: no fork to tell from another window's session.
  if ([...after.keys()].every((id) => id === guid || before.has(id))) return after;
  const registry = readRegistry(ctx.paths);
  const live = liveSessionIds(ctx.paths);
  const folder = projectDirFor(ctx.paths, dir);
  const others = new Map(
    [...after].filter(([id]) =>
      id === guid || (findSession(registry, id) === undefined && !live.has(id))
    ),
  );
  return withoutNewNonSessions(folder, ctx.paths.path.join, { before, after: others });
}

/** `-n`: a row's DESC; for a session the list lacks, its own title, else nothing. */
function launchName(
  ctx: AppContext,
  { session, registered, settings }: ResumeRequest,
): string | null {
  const name = registered ? session.desc : transcriptTitle(ctx, session);
  return name === undefined ? null : displayNameFor(settings, name);
}

/** Size and mtime of a transcript, to tell whether claude wrote to it; "" when there is none. */
function transcriptStamp(path: string | null): string {
  const stamp = path === null ? null : stampFile(path);
  return stamp === null ? "" : `${stamp.size}:${stamp.mtimeMs}`;
}

function directoryReachable(ctx: AppContext, dir: string): boolean {
  const probe = probePath(dir);
  if (probe.kind === "directory") return true;
  ctx.err.line(
    probe.kind === "unreadable"
      ? `  The session's directory cannot be reached (${probe.error}): ${dir}`
      : `  The session's directory no longer exists: ${dir}`,
    "red",
  );
  return false;
}

/** Default No: no answer at all (input closed) is not a yes. */
function confirmLiveResume(ctx: AppContext, session: Session): boolean {
  ctx.out.line(`  '${session.desc}' is open in another claude window.`, "yellow");
  ctx.out.line(
    "  Resuming it here too makes both windows write to one transcript, interleaved.",
    "yellow",
  );
  return askYesNo(ctx.prompter, "  Resume it here anyway? [y/N]: ", { defaultYes: false });
}

function askRetry(ctx: AppContext): boolean {
  ctx.out.line();
  ctx.out.line(
    "  Claude refused to resume: the transcript ends in /exit with no reply after it.",
    "yellow",
  );
  ctx.out.line("  A resume with a first message usually gets past this.", "yellow");
  return askYesNo(
    ctx.prompter,
    '  Would you like to retry with a prompt that says "please continue"? [Y/n]: ',
    { defaultYes: true },
  );
}

/**
 * Claude's manifest names the session it ended on; when it was read, it
 * decides. Without it, the spec's rule over the folder: a newest transcript
 * that is neither the original nor one that existed before.
 */
function detectFork(
  guid: string,
  { launch, before, after }: {
    launch: LaunchOutcome;
    before: FolderSnapshot;
    after: FolderSnapshot;
  },
): string | null {
  const reported = launch.manifestSessionId;
  if (reported !== null) return reported !== guid && after.has(reported) ? reported : null;
  return forkAfterResume(guid, before, after);
}
