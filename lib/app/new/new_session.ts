/**
 * `claudecm new [--proj DIR] [-- CLAUDE_ARGS]` (old forms: `claudecm n`,
 * `claudecm --proj DIR`, any other arguments): normal mode, spec 11.4. In a
 * directory with a registered session, offer to resume it; otherwise name
 * and start a fresh one. Pass-through arguments go to claude.
 *
 * @module
 */

import { askSessionName, askSessionNameOrEnd } from "../session/ask_name.ts";
import { type AppContext, jsonRunContext } from "../context.ts";
import { nothingSaves } from "../save_check.ts";
import { freshLaunch } from "../launch/fresh_launch.ts";
import { printLaunchJson } from "../launch/launch_json.ts";
import {
  argsPickSession,
  argsRunElsewhere,
  buildClaudeArgs,
  launchClaude,
} from "../launch/launch.ts";
import { type LaunchSettings, prepareLaunch } from "../launch/launch_setup.ts";
import { finishFreshLaunch } from "../after_exit/fresh_exit.ts";
import { orphanScan } from "../orphans/orphan_scan.ts";
import { pickedSession } from "../resume/picked_session.ts";
import { resumeOrRecover } from "../resume/resume_picked.ts";
import { changeRegistry } from "../registry.ts";
import { resumeSession } from "../resume/resume_session.ts";
import { ExitCode, UsageError, UserError } from "../../core/errors.ts";
import { folderDefaultName } from "../../core/format.ts";
import { folderMatcher } from "../../core/folder_match.ts";
import { isDirectory } from "../../core/fs_checks.ts";
import { leafName } from "../../core/paths.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import {
  canonicalSessionId,
  findSession,
  isSessionId,
  mainSessions,
  type Session,
  validateSessionDir,
} from "../../core/registry.ts";
import { renameSession } from "../../core/registry_ops.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { readHeadCwd } from "../../transcript/tail.ts";
import { askYesNo } from "../../ui/prompt.ts";
import { typedPath } from "../folder_option.ts";

/** Options of `claudecm new`. */
export interface NewOptions {
  /** `--proj DIR`: the project directory instead of the cwd. */
  proj?: string;
  /** Arguments for claude. */
  passArgs: string[];
  /** `--name NAME`: a new session of that name, with no question (issue 33.2). */
  name?: string;
  /** `--json` (with `--name`): the new session as JSON once claude exits; nothing asked. */
  json?: boolean;
}

/** Start (or resume) the session of a directory; returns the exit code. */
export async function runNew(given: AppContext, options: NewOptions): Promise<number> {
  const { passArgs } = options;
  const elsewhere = argsRunElsewhere(passArgs);
  const resumeId = resumedSessionId(passArgs);
  const print = argsPrint(passArgs) && !argsPickSession(passArgs);
  if (options.json && (options.name === undefined || elsewhere || resumeId !== null || print)) {
    throw new UsageError(
      options.name === undefined
        ? "new --json never asks, so it needs the name: claudecm new --name NAME --json"
        : "new --json reports the session it starts here, and with these arguments claude " +
          "starts none here (a -p call, a --resume, a session run elsewhere): leave out --json",
    );
  }
  // With --json, stdout is the document's alone and nothing is asked.
  const ctx = options.json ? jsonRunContext(given) : given;
  const dir = projectDirectory(ctx, options.proj);
  const setup = await prepareLaunch(ctx);
  if ("reexecExitCode" in setup) return setup.reexecExitCode;
  const { settings } = setup;
  if (elsewhere) return await launchElsewhere(ctx, settings, { dir, passArgs });
  if (resumeId !== null) return await resumeFromArgs(ctx, settings, { dir, resumeId, passArgs });
  if (print) return await launchPrintCall(ctx, settings, { dir, passArgs });
  if (options.name !== undefined) {
    // Named on the command line: a new session, nothing offered and nothing asked.
    const outcome = await freshLaunch(ctx, settings, { dir, desc: options.name, passArgs });
    await finishFreshLaunch(ctx, outcome, { settings, dir, provisional: false });
    const exitCode = outcome.exitCode === 0 ? ExitCode.ok : outcome.exitCode;
    if (options.json) {
      printLaunchJson(given, { sessionId: outcome.sessionId, status: "started", exitCode });
    }
    return exitCode;
  }
  const isHere = folderMatcher(dir, ctx.os);
  let match = mainSessions(readRegistry(ctx.paths)).find((session) => isHere(session.dir));
  let preNamed: string | null | "ended" = null;
  if (match !== undefined && isSessionLive(ctx.paths, match.guid)) {
    // Claude lets two windows resume one session and interleaves their writes: never offer that.
    ctx.out.line(`  '${match.desc}' is open in another claude window; starting a new session.`);
    match = undefined;
    if (passArgs.length === 0) {
      preNamed = askNewName(ctx, folderDefaultName(leafName(ctx.paths, dir)));
    }
  } else if (match !== undefined && passArgs.length === 0) {
    const resumed = await offerResume(ctx, { settings, match });
    if (resumed !== null) return resumed;
    // Declined: a new session, which gets its own name, never the one it was offered instead.
    preNamed = askNewName(ctx, folderDefaultName(leafName(ctx.paths, dir)));
  } else if (passArgs.length === 0) {
    ctx.out.line("  No session entry found for this directory.");
    preNamed = askNewName(ctx, folderDefaultName(leafName(ctx.paths, dir)));
  }
  if (preNamed === "ended") {
    // No answer at all (input closed) starts nothing, as it says No at a y/N (DESIGN.md 5.14).
    ctx.out.line(
      ctx.keyboard
        ? "  No answer: no session started."
        : "  No answer: no session started (stdin is not a terminal; to start one without a " +
          "question: claudecm new --name NAME).",
    );
    return ExitCode.ok;
  }
  const outcome = await freshLaunch(ctx, settings, {
    dir,
    desc: preNamed ?? folderDefaultName(leafName(ctx.paths, dir)),
    passArgs,
  });
  // Asked for a name only when this launch made the row: `-c` into a listed session keeps its own.
  const provisional = preNamed === null && outcome.added;
  await finishFreshLaunch(ctx, outcome, { settings, dir, provisional });
  return outcome.exitCode === 0 ? ExitCode.ok : outcome.exitCode;
}

/**
 * claude with arguments that run the session elsewhere and return at once:
 * nothing to register now (no row written ahead, no `--session-id`), and
 * nothing to say is lost.
 */
async function launchElsewhere(
  ctx: AppContext,
  settings: LaunchSettings,
  { dir, passArgs }: { dir: string; passArgs: string[] },
): Promise<number> {
  const features = await (await ctx.tools.claude()).features();
  const args = buildClaudeArgs(settings, {
    sessionArgs: [],
    displayName: null,
    supportsName: features.name,
    passArgs,
  });
  const launch = await launchClaude(ctx, { dir, args });
  if (launch.exitCode !== 0) {
    ctx.out.line(`  claude exited with code ${launch.exitCode}; nothing was started elsewhere.`);
    return launch.exitCode;
  }
  ctx.out.line(
    "  Claude runs this session elsewhere (in the background, the cloud or the desktop app), so " +
      "claudecm registers nothing now; once its transcript is here, claudecm adopt adds it.",
  );
  return ExitCode.ok;
}

/** Whether the pass-through asks claude for one answer (`-p`/`--print`), not a session. */
function argsPrint(args: readonly string[]): boolean {
  return args.some((arg) => arg === "-p" || arg === "--print");
}

/**
 * A one-shot `claude -p` call: not a session to register (issue 31 defect
 * 14), so no row, no `-n`, no post-exit; stdout is claude's answer alone.
 */
async function launchPrintCall(
  ctx: AppContext,
  settings: LaunchSettings,
  { dir, passArgs }: { dir: string; passArgs: string[] },
): Promise<number> {
  const features = await (await ctx.tools.claude()).features();
  const args = buildClaudeArgs(settings, {
    sessionArgs: [],
    displayName: null,
    supportsName: features.name,
    passArgs,
  });
  const launch = await launchClaude(ctx, { dir, args });
  if (launch.exitCode !== 0) ctx.out.line(`  claude exited with code ${launch.exitCode}.`);
  return launch.exitCode;
}

function projectDirectory(ctx: AppContext, proj: string | undefined): string {
  const dir = proj === undefined ? ctx.cwd() : typedPath(ctx, proj);
  if (!isDirectory(dir)) throw new UserError(`not a directory: ${proj ?? dir}`);
  // Before bootstrap writes anything: a row could not hold this folder.
  return validateSessionDir(dir);
}

/** Spec 11.4 step 4: the directory's session; null when the user wants a fresh one instead. */
async function offerResume(
  ctx: AppContext,
  { settings, match }: { settings: LaunchSettings; match: Session },
): Promise<number | null> {
  const choice = await orphanScan(ctx, { dir: match.dir, registeredGuid: match.guid });
  if (choice !== null && choice.guid !== match.guid) {
    // Another transcript: an unregistered one is registered after its exit (post-exit asks its name).
    const picked = pickedSession(ctx, { guid: choice.guid, dir: match.dir });
    return await resumeSession(ctx, { settings, ...picked, launchDir: match.dir });
  }
  ctx.out.line(`  Session found: ${match.desc}`);
  const others = mainSessions(readRegistry(ctx.paths))
    .filter((session) =>
      session.guid !== match.guid && folderMatcher(match.dir, ctx.os)(session.dir)
    );
  if (others.length > 0) {
    const more = others.length === 1 ? "1 more session" : `${others.length} more sessions`;
    ctx.out.line(`  ${more} here: claudecm list`);
  }
  // What the user came for is asked first; the rename only once it is this session they want.
  if (!askYesNo(ctx.prompter, "  Resume this session? [Y/n]: ", { defaultYes: true })) return null;
  // A name that cannot be saved is not asked for; the resume itself needs nothing saved.
  const rename = nothingSaves(ctx) === null
    ? askSessionName(ctx, "  Rename? (Enter to keep): ")
    : null;
  let session = match;
  if (rename !== null) {
    await changeRegistry(
      ctx,
      (r) => findSession(r, match.guid) === undefined ? r : renameSession(r, match.guid, rename),
    );
    session = { ...match, desc: rename };
  }
  return await resumeOrRecover(ctx, { settings, session });
}

/**
 * `--resume ID` in the pass-through goes down the one resume path (11.6.1).
 * claude runs where the user is, as it would on its own, and finds the
 * transcript in whatever project folder it is in; a registered session keeps
 * its registered DIR for everything after the exit.
 */
async function resumeFromArgs(
  ctx: AppContext,
  settings: LaunchSettings,
  request: { dir: string; resumeId: string; passArgs: string[] },
): Promise<number> {
  const { dir, resumeId, passArgs } = request;
  const registered = findSession(readRegistry(ctx.paths), resumeId);
  let session = registered;
  if (session === undefined) {
    const home = sessionHome(ctx, resumeId) ?? dir;
    session = { guid: resumeId, dir: home, desc: leafName(ctx.paths, home), tokens: "" };
  }
  return await resumeSession(ctx, {
    settings,
    session,
    registered: registered !== undefined,
    launchDir: dir,
    extraArgs: withoutResume(passArgs),
  });
}

/**
 * Where an unregistered session belongs: the folder its transcript records
 * (claude keeps appending to it there, wherever it is resumed from), when
 * that folder still exists; null when unknown.
 */
function sessionHome(ctx: AppContext, guid: string): string | null {
  const located = locateTranscript(ctx.paths, { guid, dir: ctx.cwd() });
  if (located.status !== "found") return null;
  try {
    const recorded = readHeadCwd(located.path);
    return recorded !== undefined && isDirectory(recorded) ? recorded : null;
  } catch {
    return null;
  }
}

/** The uuid after `-r`/`--resume` (or `--resume=`), when the pass-through resumes by id. */
function resumedSessionId(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const inline = /^--resume=(.+)$/.exec(args[i])?.[1];
    const value = inline ?? (["-r", "--resume"].includes(args[i]) ? args[i + 1] : undefined);
    if (value !== undefined && isSessionId(value)) return canonicalSessionId(value);
  }
  return null;
}

function withoutResume(args: readonly string[]): string[] {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (/^--resume=/.test(args[i])) continue;
    if (["-r", "--resume"].includes(args[i]) && isSessionId(args[i + 1] ?? "")) {
      i++;
      continue;
    }
    rest.push(args[i]);
  }
  return rest;
}

/** Spec 11.4 step 5: the new session's name; null for `skip`; "ended" for no answer at all. */
function askNewName(ctx: AppContext, fallback: string): string | null | "ended" {
  // A new session's row is written before claude starts: no name is asked that cannot be kept.
  const refusal = nothingSaves(ctx);
  if (refusal !== null) throw refusal;
  const answer = askSessionNameOrEnd(
    ctx,
    `  Create a name for this session (Enter for '${fallback}', 'skip' to skip): `,
  );
  if (answer === null) return fallback;
  if (answer === "ended") return answer;
  return answer.toLowerCase() === "skip" ? null : answer;
}
