/**
 * `claudecm recall`: of what a session did, what still holds in the
 * repository now (recall-contract.md). Finds the transcript, mines its work
 * records, verifies them against the live folder and git, tags each one,
 * picks one next move, and prints the capsule. Strictly read-only: no file
 * is written anywhere and git is asked read-only questions only.
 *
 * @module
 */

import { withoutOwnPrefix } from "../../transcript/session_title.ts";
import { ownMachineNames } from "../bootstrap/machine_name.ts";
import { basename } from "../../core/path.ts";
import { isDirectory } from "../../core/fs_checks.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import { UsageError, UserError } from "../../core/errors.ts";
import { TranscriptError } from "../../transcript/entries.ts";
import { type MinedSession, mineWork, type WorkRecord } from "../../transcript/work_records.ts";
import type { AppContext } from "../context.ts";
import { folderOption } from "../folder_option.ts";
import { type Capsule, capsuleJson } from "./capsule.ts";
import { RecallFailure } from "./failures.ts";
import { createGitRunner, GitRepo, type GitRunner } from "./git.ts";
import { chooseNextMove } from "./next_move.ts";
import { renderCapsule } from "./render.ts";
import { inScope } from "./scope.ts";
import { lastSession, locateSession, type RecallSource } from "./source.ts";
import { tagRecords } from "./tag.ts";
import { type RepoAccess, type Verification, verifyRecords } from "./verify.ts";
import { safeJson } from "../../core/safe_text.ts";

/** What `recall` was asked to do. */
export interface RecallOptions {
  /** A session id, a transcript path or a session dir. */
  session?: string;
  /** Recall the newest non-live session of the folder instead. */
  last?: boolean;
  cwd?: string;
  scope?: string;
  json?: boolean;
  /** Sessions `--last` leaves out, besides $CLAUDE_CODE_SESSION_ID. */
  exclude?: string[];
  /** The git to ask; the real one by default. */
  git?: GitRunner;
}

/** Run `recall`; returns the exit code, or throws the failure (printed as JSON first with --json). */
export function runRecall(ctx: AppContext, options: RecallOptions): number {
  if (options.last && options.session !== undefined) {
    throw new UsageError("give a session or --last, not both");
  }
  if (options.session?.trim() === "") throw new UsageError("argument 'session' is empty");
  if (!options.last && (options.exclude?.length ?? 0) > 0) {
    throw new UsageError("--exclude goes with --last: a named session is never left out");
  }
  if (!options.last && options.session === undefined) {
    throw new UsageError(
      "name the session to recall (an id, a transcript path or a session folder), or use --last",
    );
  }
  try {
    const capsule = buildCapsule(ctx, options);
    if (capsule.source.picked && !options.json) {
      // A session that could not be read may be newer than the one picked.
      for (const why of capsule.source.picked.unreadable) ctx.err.line(`recall: ${why}`, "red");
      ctx.err.line(
        `recall: --last picked session ${capsule.sessionId}, the newest here that is not live`,
      );
    }
    if (options.json) ctx.out.line(safeJson(capsuleJson(capsule), 2));
    else ctx.out.write(renderCapsule(capsule));
    return 0;
  } catch (error) {
    if (options.json && error instanceof UserError && !(error instanceof UsageError)) {
      const body = error instanceof RecallFailure
        ? error.toJson()
        : { status: "error", exitCode: error.exitCode, message: error.message };
      ctx.out.line(safeJson(body, 2));
    }
    throw error;
  }
}

/** Steps 1 to 7 of the contract. */
export function buildCapsule(ctx: AppContext, options: RecallOptions): Capsule {
  const cwd = folderOption(ctx, options.cwd);
  const source = options.last
    ? lastSession(ctx, cwd, options.exclude)
    : locateSession(ctx, options.session ?? "", cwd);
  const mined = mine(source);
  const sessionId = source.sessionId ?? mined.sessionId ?? basename(source.path);
  if (mined.records.length === 0) {
    throw new RecallFailure(
      "no-recoverable-state",
      `session ${sessionId} recorded no work to recall (no tool calls, no todo list)`,
      { session_id: sessionId, transcript: source.path },
    );
  }
  const folder = options.cwd === undefined ? mined.cwd ?? cwd : cwd;
  const access = repoAccess(
    folder,
    mined,
    options.git ?? createGitRunner({ env: ctx.childEnv(), os: ctx.os }),
  );
  const verifications = verifyRecords(mined.records, access);
  const records = [...mined.records];
  const current = branchCheck(mined, access, records, verifications);
  const tagged = tagRecords(records, { verifications, truncated: mined.truncated });
  const scoped = options.scope === undefined
    ? tagged
    : tagged.filter((t) => inScope(t, options.scope!, folder));
  if (scoped.length === 0) {
    throw new RecallFailure(
      "no-recoverable-state",
      `no work record of session ${sessionId} matches --scope "${options.scope}" ` +
        `(${tagged.length} records outside it)`,
      { session_id: sessionId, transcript: source.path, scope: options.scope },
    );
  }
  const inside = new Set(scoped);
  return {
    sessionId,
    source,
    title: mined.title === undefined
      ? undefined
      : withoutOwnPrefix(mined.title, ownMachineNames(ctx)),
    cwd: folder,
    branch: { recorded: mined.branch, current },
    lastActivity: mined.lastActivity,
    truncated: mined.truncated,
    live: isSessionLive(ctx.paths, sessionId),
    scope: options.scope,
    records: scoped,
    total: tagged.length,
    nextMove: chooseNextMove(scoped, { all: tagged, lastAsk: mined.lastAsk }),
    divergences: tagged.filter((t) => t.status === "diverged")
      .map((t) => ({ tagged: t, inScope: inside.has(t) })),
  };
}

/** Step 2: parse the whole transcript, or refuse with the line and the parser's error. */
function mine(source: RecallSource): MinedSession {
  try {
    return mineWork(source.path);
  } catch (error) {
    if (error instanceof TranscriptError && error.line !== undefined) {
      throw new RecallFailure(
        "transcript-parse-failure",
        `cannot parse ${source.path}: line ${error.line}: ${error.reason ?? error.message} ` +
          "(claudecm recover reads past corrupt lines)",
        { transcript: source.path, line: error.line, error: error.reason ?? error.message },
      );
    }
    throw error;
  }
}

/** The repository to ask, only when the session used git (a branch recorded, a commit made). */
function repoAccess(folder: string, mined: MinedSession, run: GitRunner): RepoAccess {
  const needed = mined.branch !== undefined ||
    mined.records.some((r) => r.expects.some((e) => e.kind === "commit" || e.kind === "pushed"));
  if (!needed) return { repo: { missing: "not needed" } };
  if (!isDirectory(folder)) return { repo: { missing: `the folder ${folder} no longer exists` } };
  const repo = new GitRepo(folder, run);
  const problem = repo.problem();
  return problem === undefined ? { repo } : { repo: { missing: problem } };
}

/** Add the branch record (the branch the session recorded against the one checked out now). */
function branchCheck(
  mined: MinedSession,
  access: RepoAccess,
  records: WorkRecord[],
  verifications: Map<number, Verification>,
): string | undefined {
  const recorded = mined.branch;
  if (recorded === undefined) return undefined;
  const current = "missing" in access.repo ? undefined : access.repo.currentBranch();
  const record: WorkRecord = {
    seq: records.length + 1,
    kind: "branch",
    action: `work on branch ${recorded}`,
    outcome: "success",
    paths: [],
    step: "branch",
    expects: [],
    line: records.at(-1)?.line ?? 0,
    timestamp: mined.lastActivity,
    cwd: mined.cwd,
  };
  records.push(record);
  const same = current === recorded || (recorded === "HEAD" && current?.startsWith("detached"));
  verifications.set(
    record.seq,
    same ? { verdict: "match" } : {
      verdict: "diverged",
      expected: `branch ${recorded} checked out`,
      found: "missing" in access.repo ? access.repo.missing : `${current} checked out`,
    },
  );
  return current;
}
