/**
 * `claudecm rescue`: find sessions that died of context overflow and turn
 * them into threads in a workspace (recover-session.md). The scan reads only
 * the end of each recent transcript; sessions a thread already recovered are
 * dropped before anything is extracted; each chosen session is then streamed
 * once into a bounded extract, from which its thread is built. `--dry-run`
 * shows every file that would be written and writes nothing anywhere; a real
 * run writes only inside `<workspace>/workspace/threads/` and never commits.
 * Two rescues into one workspace at the same moment can race on INDEX.md and
 * recent.md (the last write wins; thread files never collide): accepted, as
 * spec 14.1 accepts it for recovery prompts, since a rescue is user-initiated.
 *
 * @module
 */

import { withoutOwnPrefix } from "../../transcript/session_title.ts";
import { ownMachineNames } from "../bootstrap/machine_name.ts";
import { readFailure } from "../../core/fs_checks.ts";
import { errorMessage, ExitCode, UserError } from "../../core/errors.ts";
import { canonicalSessionId, isSessionId } from "../../core/registry.ts";
import { encodeLossless } from "../../core/lossless_text.ts";
import { basename, join } from "../../core/path.ts";
import { typedPath } from "../folder_option.ts";
import { writeFileAtomic } from "../../store/atomic_write.ts";
import { checkDeath } from "../../transcript/death.ts";
import { type DeadScan, type DeadSession, scanDeadSessions } from "../../transcript/dead_scan.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { extractRescue } from "../../transcript/rescue_extract.ts";
import type { AppContext } from "../context.ts";
import {
  planArtifacts,
  type PlannedFile,
  readText,
  readThreadRows,
  recoveredSessionIds,
} from "./artifacts.ts";
import { removeStaleTemps, unannouncedThreads } from "./repair.ts";
import { DEFAULT_DAYS } from "./defaults.ts";
import { summarizeWithClaude } from "./summarize.ts";
import { buildThread, mechanicalSummary, sessionSlug, type Thread } from "./thread.ts";
import { readListNumbers } from "../session/list_numbers.ts";
import { chooseRows, type DeadRow, deadTable, type RecoveredThread, reportLines } from "./view.ts";
import { openWorkspace, projectName, type Workspace } from "./workspace.ts";
import { safeJson } from "../../core/safe_text.ts";

/** What `rescue` was asked to do. */
export interface RescueOptions {
  days?: number;
  session?: string;
  dryRun?: boolean;
  /** The workspace root; the current folder by default. */
  workspace?: string;
  json?: boolean;
  all?: boolean;
  summarize?: boolean;
}

/** Run `rescue`; returns the exit code. */
export async function runRescue(ctx: AppContext, options: RescueOptions): Promise<number> {
  const days = options.days ?? DEFAULT_DAYS;
  // Claude names sessions in lower case: an id typed in upper case names the same one.
  const onlySession = options.session === undefined
    ? undefined
    : canonicalSessionId(options.session);
  if (onlySession !== undefined && !isSessionId(onlySession)) {
    throw new UserError(
      `not a session id (expected a UUID): ${options.session}`,
      ExitCode.notFound,
    );
  }
  const workspace = openWorkspace(
    options.workspace === undefined ? ctx.cwd() : typedPath(ctx, options.workspace),
  );
  const scan = scanDeadSessions(ctx.paths.projectsDir, {
    now: ctx.now(),
    days,
    session: onlySession,
  });
  // claudecm's own `<machine> - ` launch prefix is no part of a title (issue 31 defect 6).
  const machine = ownMachineNames(ctx);
  for (const session of scan.dead) {
    if (session.title !== undefined) session.title = withoutOwnPrefix(session.title, machine);
  }
  if (onlySession !== undefined && scan.dead.length === 0) {
    explainNotDead(ctx, onlySession, scan);
  }
  const recovered = recoveredSessionIds(workspace.threadsDir);
  const already = scan.dead.filter((session) => recovered.has(session.id));
  const rows = scan.dead.filter((session) => !recovered.has(session.id))
    .map((session) => deadRow(workspace, session));
  const base = { workspace, days, scan, already, rows, dryRun: options.dryRun === true };
  for (const skipped of scan.skipped) {
    if (!options.json) ctx.err.line(`skipped ${skipped.path}: ${skipped.reason}`, "yellow");
  }

  if (rows.length === 0) {
    // Nothing new, but an earlier rescue may have been killed before its index files.
    const mayWrite = !options.dryRun && (options.all || onlySession !== undefined);
    const repaired = mayWrite ? planFiles(ctx, workspace, []) : [];
    if (mayWrite) writeFiles(workspace, repaired);
    if (options.json) printJson(ctx, base, [], repaired);
    else {
      if (repaired.length > 0) {
        const names = repaired.map((file) => basename(file.path)).join(", ");
        ctx.out.line(`Rebuilt ${names} from the threads in ${workspace.threadsDir}.`);
      }
      reportNothingNew(ctx, { ...base, session: onlySession });
    }
    return 0;
  }

  let chosen: DeadRow[];
  const heading = `Dead Sessions Found (last ${days} days):`;
  // Only a table shown to a person needs the list numbers.
  const table = () => deadTable(rows, { heading, listNumbers: readListNumbers(ctx) });
  if (options.all || onlySession !== undefined) {
    chosen = rows;
  } else if (options.json || !ctx.interactive) {
    if (options.json) printJson(ctx, base, [], []);
    else {
      for (const line of table()) ctx.out.line(line);
      ctx.out.line("");
      ctx.out.line("Recover them with --all, or one with --session ID (add --dry-run to preview).");
    }
    return 0;
  } else {
    for (const line of table()) ctx.out.line(line);
    ctx.out.line("");
    chosen = chooseRows(ctx, rows.length).map((i) => rows[i]);
    if (chosen.length === 0) {
      ctx.out.line("Nothing recovered.");
      return 0;
    }
  }

  const items = await buildThreads(ctx, workspace, chosen, options);
  const threads = items.map((item) => item.thread);
  const files = planFiles(ctx, workspace, threads);
  if (!options.dryRun) writeFiles(workspace, files);
  if (options.json) {
    printJson(ctx, base, items, files);
    return 0;
  }
  for (const line of reportLines(items, options.dryRun === true)) ctx.out.line(line);
  if (options.dryRun) printPlan(ctx, items, files);
  return 0;
}

function reportNothingNew(
  ctx: AppContext,
  base: { workspace: Workspace; days: number; already: DeadSession[]; session?: string },
): void {
  const { threadsDir } = base.workspace;
  if (base.session !== undefined) {
    ctx.out.line(
      `Session ${base.session} was already recovered: a thread in ${threadsDir} names it.`,
    );
    ctx.out.line("Next: start a fresh session from that thread, as the rescue said.");
    return;
  }
  ctx.out.line(`No unrecovered dead sessions found (last ${base.days} days).`);
  if (base.already.length > 0) {
    ctx.out.line(`${base.already.length} already recovered in ${threadsDir}.`);
  }
}

/** The files to write: `threads`, and the derived files rebuilt from every thread on disk. */
function planFiles(ctx: AppContext, workspace: Workspace, threads: Thread[]): PlannedFile[] {
  return planArtifacts(workspace, threads, {
    now: ctx.now(),
    existing: readThreadRows(workspace.threadsDir),
    indexText: readIndex(workspace),
    announce: threads.length > 0 ? threads : unannouncedThreads(workspace.threadsDir),
  });
}

async function buildThreads(
  ctx: AppContext,
  workspace: Workspace,
  chosen: DeadRow[],
  options: RescueOptions,
): Promise<RecoveredThread[]> {
  const askClaude = options.summarize === true && !options.dryRun;
  if (options.summarize && options.dryRun && !options.json) {
    ctx.err.line(
      "--summarize is not used with --dry-run (claude would write its own state); " +
        "showing the mechanical summary",
      "yellow",
    );
  }
  const items: RecoveredThread[] = [];
  for (const { session } of chosen) {
    const extract = extractRescue(session.path);
    const mechanical = mechanicalSummary(session, extract);
    if (askClaude && !options.json) ctx.err.line(`Asking claude to summarise ${session.id}...`);
    const summary = askClaude
      ? await summarizeWithClaude(ctx, extract, { fallback: mechanical, cwd: workspace.root })
      : { text: mechanical, source: "mechanical" as const };
    items.push({
      thread: buildThread({ session, extract, workspace, summary: summary.text }),
      session,
      summarySource: summary.source,
      summaryNote: summary.note,
      notes: [...new Set([...session.notes, ...extract.notes])],
      gitCommands: extract.gitCommands.length,
      filesTouched: extract.filesTouchedCount,
    });
  }
  return items;
}

/** A --session that did not make the list: say why, as an error. */
function explainNotDead(ctx: AppContext, session: string, scan: DeadScan): never {
  const located = locateTranscript(ctx.paths, { guid: session, dir: ctx.cwd() });
  if (located.status === "unreadable") {
    throw new UserError(`cannot look for session ${session}: ${located.error}: ${located.path}`);
  }
  if (located.status === "missing") {
    throw new UserError(
      `no transcript for session ${session} under ${ctx.paths.projectsDir}`,
      ExitCode.notFound,
    );
  }
  const path = located.path;
  const skipped = scan.skipped.find((s) => s.path === path);
  if (skipped) throw new UserError(`cannot judge session ${session}: ${skipped.reason}`);
  const check = checkDeath(path);
  const why = check.verdict === "subagent"
    ? "it is a subagent transcript"
    : "no overflow error at its end, or the session went on after one";
  throw new UserError(`session ${session} did not die of context overflow: ${why}`);
}

function deadRow(workspace: Workspace, session: DeadSession): DeadRow {
  return {
    session,
    slug: sessionSlug(session),
    project: projectName(workspace, session.cwd ?? null, session.projectDir),
  };
}

function readIndex(workspace: Workspace): string | undefined {
  const path = join(workspace.threadsDir, "INDEX.md");
  try {
    return readText(path);
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(readFailure(path, error));
  }
}

function writeFiles(workspace: Workspace, files: PlannedFile[]): void {
  if (files.length === 0) return;
  try {
    Deno.mkdirSync(workspace.threadsDir, { recursive: true });
    removeStaleTemps(workspace.threadsDir);
    // The user's own bytes in INDEX.md (even ones that are not UTF-8) go back as they came.
    for (const file of files) writeFileAtomic(file.path, encodeLossless(file.content));
  } catch (error) {
    throw new UserError(`cannot write to ${workspace.threadsDir}: ${errorMessage(error)}`);
  }
}

function printPlan(ctx: AppContext, items: RecoveredThread[], files: PlannedFile[]): void {
  for (const item of items) {
    ctx.out.line(`${item.thread.id}.json:`);
    ctx.out.line(safeJson(item.thread, 2));
    ctx.out.line("");
  }
  ctx.out.line("Would write:");
  for (const file of files) ctx.out.line(`  ${file.action.padEnd(7)} ${file.path}`);
  // What to do next with what was shown (issue 31 item 11).
  ctx.out.line("");
  ctx.out.line("Next: run the same command without --dry-run to write them.");
}

interface JsonBase {
  workspace: Workspace;
  days: number;
  scan: DeadScan;
  already: DeadSession[];
  rows: DeadRow[];
  dryRun: boolean;
}

function printJson(
  ctx: AppContext,
  base: JsonBase,
  items: RecoveredThread[],
  files: PlannedFile[],
): void {
  ctx.out.line(safeJson(
    {
      workspace: base.workspace.root,
      threadsDir: base.workspace.threadsDir,
      days: base.days,
      dryRun: base.dryRun,
      examined: base.scan.examined,
      dead: base.rows.map((row) => ({ ...row.session, slug: row.slug, project: row.project })),
      alreadyRecovered: base.already.map((session) => session.id),
      skipped: base.scan.skipped,
      recovered: items.map((item) => ({
        sessionId: item.session.id,
        threadId: item.thread.id,
        summarySource: item.summarySource,
        summaryNote: item.summaryNote ?? null,
        filesTouched: item.filesTouched,
        gitCommands: item.gitCommands,
        notes: item.notes,
        thread: item.thread,
      })),
      files: files.map((file) => ({ path: file.path, action: file.action })),
      written: !base.dryRun && files.length > 0,
    },
    2,
  ));
}
