/**
 * `claudecm recover`: find the session that crashed in this folder and print
 * a budgeted digest of its working state (recover-design.md). Phase 1 ranks
 * candidates, phase 2 digests the confirmed one; in a terminal with neither,
 * the auto-pick is shown and confirmed first. Read-only: nothing is written.
 *
 * @module
 */

import { withoutOwnPrefix } from "../../transcript/session_title.ts";
import { ownMachineNames } from "../bootstrap/machine_name.ts";
import { ExitCode, UsageError, UserError } from "../../core/errors.ts";
import { rankCandidates, type Ranking } from "../../transcript/candidates.ts";
import { collectDigest } from "../../transcript/digest.ts";
import { renderDigest, resumeCommand } from "../../transcript/digest_render.ts";
import type { ReadMode } from "../../transcript/entries.ts";
import { resolveProjectDir } from "../../transcript/project_dir.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { folderMatcher } from "../../core/folder_match.ts";
import type { AppContext } from "../context.ts";
import { folderOption } from "../folder_option.ts";
import { resolveSession } from "../session/resolve_session.ts";
import { DEFAULT_BUDGET, DEFAULT_LIMIT } from "./defaults.ts";
import { candidateTable, choosePick } from "./recover_view.ts";
import { readListNumbers } from "../session/list_numbers.ts";
import { canonicalSessionId, isSessionId } from "../../core/registry.ts";
import { safeJson } from "../../core/safe_text.ts";

/** What `recover` was asked to do. */
export interface RecoverOptions {
  json?: boolean;
  cwd?: string;
  /** Sessions left out, besides $CLAUDE_CODE_SESSION_ID. */
  exclude?: string[];
  limit?: number;
  session?: string;
  digest?: boolean;
  budget?: number;
  strict?: boolean;
}

/** Phase 1's answer, as `--json` prints it. */
export interface CandidateList extends Ranking {
  cwd: string;
  projectDir: string | null;
}

/** Run `recover`; returns the exit code. */
export function runRecover(ctx: AppContext, options: RecoverOptions): number {
  if (options.digest && options.session === undefined) {
    throw new UsageError(
      "--digest needs --session ID (list candidates with: claudecm recover --json)",
    );
  }
  if (options.session !== undefined) {
    printDigest(ctx, sessionOf(ctx, options.session), options);
    return 0;
  }
  const list = listCandidates(ctx, options);
  const unreadable = list.excluded.filter((exclusion) => exclusion.reason === "unreadable");
  // Nothing to offer because files could not be read is a failure, not "no prior session".
  const code = list.candidates.length === 0 && unreadable.length > 0 ? 1 : 0;
  if (options.json) {
    ctx.out.line(safeJson(list, 2));
    return code;
  }
  for (const exclusion of unreadable) ctx.err.line(`recover: ${exclusion.error}`, "red");
  if (code !== 0) return code;
  if (list.projectDir === null || list.candidates.length === 0) {
    ctx.out.line(`No prior session for this folder: ${list.cwd}`);
    return 0;
  }
  const listNumbers = readListNumbers(ctx);
  if (!ctx.interactive) {
    for (const line of candidateTable(list, { now: ctx.now(), listNumbers })) ctx.out.line(line);
    return 0;
  }
  const pick = choosePick(ctx, list, listNumbers);
  if (pick === undefined) {
    ctx.out.line("Nothing recovered.");
    return 0;
  }
  printDigest(ctx, { id: pick.id }, options);
  return 0;
}

/** Phase 1: the ranked candidates of the cwd's project dir, the live session left out. */
export function listCandidates(ctx: AppContext, options: RecoverOptions): CandidateList {
  const cwd = folderOption(ctx, options.cwd);
  const limit = options.limit ?? DEFAULT_LIMIT;
  const found = resolveProjectDir(ctx.paths, cwd, { os: ctx.os });
  if (found === undefined) return { cwd, projectDir: null, candidates: [], excluded: [] };
  const exclude = new Set(
    [...options.exclude ?? [], ctx.env("CLAUDE_CODE_SESSION_ID")]
      .map((id) => canonicalSessionId(id ?? "")).filter((id) => id !== ""),
  );
  // Only this folder's sessions: another folder's path may encode to the same project key.
  const isFolder = folderMatcher(cwd, ctx.os);
  const ranking = rankCandidates(found.dir, { exclude, now: ctx.now(), isFolder });
  // claudecm's own `<machine> - ` launch prefix is no part of a title (issue 31 defect 6).
  const machine = ownMachineNames(ctx);
  const candidates = ranking.candidates.slice(0, limit).map((candidate) => ({
    ...candidate,
    title: candidate.title === null ? null : withoutOwnPrefix(candidate.title, machine),
  }));
  return { cwd, projectDir: found.dir, ...ranking, candidates };
}

/**
 * The session `--session` names: an id, registered or not, or what the one
 * resolver takes (a list number, a saved name, an id prefix), whose row
 * says the folder to look in first.
 */
function sessionOf(ctx: AppContext, ref: string): { id: string; dir?: string } {
  const id = canonicalSessionId(ref);
  if (isSessionId(id)) return { id };
  const { session } = resolveSession(ctx, ref, { notFoundCode: ExitCode.notFound });
  return { id: session.guid, dir: session.dir };
}

/** Phase 2: print the digest of session `id`. */
function printDigest(
  ctx: AppContext,
  { id, dir }: { id: string; dir?: string },
  options: RecoverOptions,
): void {
  const budget = options.budget ?? DEFAULT_BUDGET;
  const cwd = options.cwd === undefined && dir !== undefined ? dir : folderOption(ctx, options.cwd);
  const path = findTranscript(ctx, id, cwd);
  const mode: ReadMode = options.strict ? "strict" : "lenient";
  const data = collectDigest(path, id, { mode });
  if (data.customTitle !== undefined) {
    data.customTitle = withoutOwnPrefix(data.customTitle, ownMachineNames(ctx));
  }
  const rendered = renderDigest(data, budget);
  if (!options.json) {
    ctx.out.write(rendered.text);
    return;
  }
  ctx.out.line(safeJson(
    {
      sessionId: id,
      path,
      budget,
      clipped: rendered.clipped,
      omitted: rendered.omitted,
      incomplete: data.incomplete,
      truncated: data.report.truncated,
      corruptLines: data.report.corrupt,
      oversizedLines: data.report.oversized,
      resume: resumeCommand(id),
      digest: rendered.text,
    },
    2,
  ));
}

/** The transcript of session `id`: in the cwd's project dir, else in any project dir. */
function findTranscript(ctx: AppContext, id: string, cwd: string): string {
  if (!isSessionId(id)) {
    throw new UserError(`not a session id (expected a UUID): ${id}`, ExitCode.notFound);
  }
  const located = locateTranscript(ctx.paths, { guid: id, dir: cwd });
  if (located.status === "found") return located.path;
  if (located.status === "unreadable") {
    throw new UserError(`cannot look for session ${id}: ${located.error}: ${located.path}`);
  }
  throw new UserError(
    `no transcript for session ${id} under ${ctx.paths.projectsDir}`,
    ExitCode.notFound,
  );
}
