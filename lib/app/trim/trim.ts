/**
 * Trimming a session through cmv (spec 11.13), offered by the post-exit flow.
 * cmv writes a trimmed copy of the transcript under a new session id and
 * leaves the original in place; claudecm checks the copy landed in the
 * session's own project folder, points the registry row at it (name,
 * directory and tokens kept), and moves the pre-trim transcript to
 * `~/.claudecm/backup/<project leaf>/` so it never turns into an orphan.
 *
 * ```ts
 * const newGuid = await trimSession(ctx, { guid });
 * if (newGuid !== null) guid = newGuid; // the session now lives under the new id
 * ```
 *
 * @module
 */

import { recordLineage } from "../session/lineage_record.ts";
import type { AppContext } from "../context.ts";
import { recheckThenAct, refusalOf } from "../recheck.ts";
import { syncVault } from "../vault/vault_sync.ts";
import { errorMessage, InterruptedError, UserError } from "../../core/errors.ts";
import { projectDirFor, sessionBackupDir } from "../../core/paths.ts";
import { type FileStamp, stampFile } from "../../core/preconditions.ts";
import { findSession, type Session, transcriptSessionId } from "../../core/registry.ts";
import { replaceGuid } from "../../core/registry_ops.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import { type CmvAvailable, parseTrimOutput, type TrimOutcome } from "../../platform/cmv.ts";
import { moveSessionAside } from "../../store/move_aside.ts";
import { movePretrimAside } from "./pretrim_aside.ts";
import { continuesHistory } from "../../transcript/conversation.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";
import { readRegistry } from "../../store/registry_store.ts";
import {
  isDirectory,
  isFile,
  probePath,
  readDirOrEmpty,
  subdirectoryNames,
} from "../../core/fs_checks.ts";

/** What to trim. */
export interface TrimOptions {
  /** The registered session to trim; cmv is always told this id (never `--latest`). */
  guid: string;
}

/** A temp file older than this is a leftover of an earlier trim (spec 11.13 step 2). */
const STALE_TEMP_MS = 5 * 60_000;

/** A trim that runs longer than this is stopped, so the post-exit flow cannot hang on it. */
const TRIM_TIMEOUT_MS = 10 * 60_000;

const TEMP_SUFFIX = ".cmv-trim-tmp";

/**
 * Trim session `guid` with `cmv trim -s <guid> --skip-launch` (spec 11.13).
 * Returns the new session id, or null when nothing changed (cmv missing, the
 * session not registered or its transcript not in its project folder, the
 * trim failed or wrote its file elsewhere); every failure is reported on the
 * way, none is thrown.
 */
export async function trimSession(ctx: AppContext, options: TrimOptions): Promise<string | null> {
  const { guid } = options;
  const cmv = await ctx.tools.cmv();
  if (!cmv.available) {
    ctx.err.line(`  No trim: ${cmv.notice}`, "yellow");
    return null;
  }
  const session = findSession(readRegistry(ctx.paths), guid);
  if (session === undefined) {
    ctx.err.line(`  Cannot trim ${guid}: it is not in sessions.txt.`, "red");
    return null;
  }
  const join = ctx.paths.path.join;
  const folder = projectDirFor(ctx.paths, session.dir);
  const transcript = join(folder, `${guid}.jsonl`);
  const probe = probePath(transcript);
  if (probe.kind !== "file") {
    // cmv would find it in whatever project folder it is in and write the trimmed
    // copy there, where step 8 must refuse it: better not to create that file.
    ctx.err.line(
      probe.kind === "unreadable"
        ? `  Cannot trim ${guid}: its transcript cannot be read (${probe.error}): ${transcript}.`
        : `  Cannot trim ${guid}: its transcript is not at ${transcript}.`,
      "red",
    );
    return null;
  }
  // The trim replaces the transcript another window would be appending to (asked here again:
  // a question may have waited while another window resumed it).
  if (isSessionLive(ctx.paths, guid)) {
    ctx.err.line(`  Not trimmed: ${guid} is open in another claude window now.`, "red");
    return null;
  }
  // What cmv trims: the row moves to the trimmed copy, and the pre-trim file aside, only
  // while it is still this file.
  const pretrim = stampFile(transcript);
  const staleBefore = ctx.now().getTime() - STALE_TEMP_MS;
  const stale = (_name: string, mtime: number) => mtime < staleBefore;
  for (const name of removeTempFiles(ctx, { folder, select: stale })) {
    ctx.out.line(`  Cleaned stale CMV temp file: ${name}`, "darkGray");
  }

  ctx.out.line("  Trimming session...");
  // Whole seconds: a file system with coarse timestamps (HFS+, FAT) can stamp a
  // temp file cmv writes during this run a little before the exact start time.
  const trimStartedAt = Math.floor(ctx.now().getTime() / 1000) * 1000;
  const cwd = isDirectory(session.dir) ? session.dir : ctx.cwd();
  // What was there before cmv ran: the id it reports must name a copy it wrote now.
  const before = new Set(readDirOrEmpty(folder).map((entry) => entry.name));
  let outcome: TrimOutcome | null;
  try {
    outcome = await runTrim(ctx, cmv, { guid, cwd });
  } catch (error) {
    // Ctrl-C while cmv ran: what it wrote is no one's (the row is unchanged), and claude
    // --continue would take it for the newest session. It goes aside, not away.
    if (error instanceof InterruptedError) setAsideNewCopies(ctx, { session, folder, before });
    throw error;
  }
  if (outcome === null) return null;
  const trimmedTo = await finishTrim(ctx, {
    session,
    folder,
    pretrim,
    before,
    outcome,
    trimStartedAt,
  });
  // cmv ran and its copy was not taken (stopped at the time limit, died, or named another
  // session): what it wrote goes aside, as after a Ctrl-C.
  if (trimmedTo === null) {
    setAsideNewCopies(ctx, { session, folder, before, named: outcome.namedIds });
  }
  return trimmedTo;
}

/** Steps 6 to 8 of spec 11.13 once cmv has run: the new id checked, the row swapped. */
async function finishTrim(
  ctx: AppContext,
  { session, folder, pretrim, before, outcome, trimStartedAt }: {
    session: Session;
    folder: string;
    pretrim: FileStamp | null;
    before: Set<string>;
    outcome: TrimOutcome;
    trimStartedAt: number;
  },
): Promise<string | null> {
  const { guid } = session;
  const join = ctx.paths.path.join;
  const newGuid = outcome.newSessionId;
  // A "new" id equal to the old would have the step below move the registered transcript away.
  // A cmv that failed or was stopped may have printed the id of a copy it never finished.
  if (
    newGuid === null || newGuid === guid || outcome.run.code !== 0 || outcome.run.timedOut
  ) {
    reportNoNewId(ctx, outcome);
    return null;
  }
  // An id cmv did not just write (another row's, one open in another window) would point this
  // row at someone else's session and move this one's transcript away.
  if (
    before.has(`${newGuid}.jsonl`) || findSession(readRegistry(ctx.paths), newGuid) !== undefined ||
    isSessionLive(ctx.paths, newGuid)
  ) {
    ctx.err.line(
      `  cmv named session ${newGuid}, which was there before the trim: it is not the trimmed ` +
        "copy. sessions.txt is unchanged.",
      "red",
    );
    return null;
  }

  // Spec 11.13 updates sessions.txt (step 6) before checking where the new file
  // is (steps 7 and 8). Checking first means a failed or misplaced trim never
  // leaves the registry pointing at a transcript that is not there.
  const expected = join(folder, `${newGuid}.jsonl`);
  const trimmed = probePath(expected);
  if (trimmed.kind === "unreadable") {
    ctx.err.line(
      `  Cannot check cmv's trimmed session (${trimmed.error}): ${expected}. ` +
        "sessions.txt is unchanged.",
      "red",
    );
    return null;
  }
  if (trimmed.kind !== "file") {
    reportMisplaced(ctx, { expected, newGuid });
    return null;
  }
  // A transcript ends with a whole line: an empty copy, or one cut mid-line, is not a session.
  if (!endsWithWholeLine(expected)) {
    ctx.err.line(
      `  cmv's trimmed session ${expected} is empty or cut short: it is not taken. ` +
        "sessions.txt is unchanged.",
      "red",
    );
    return null;
  }
  // Under the lock: still listed, still closed, still the file cmv read. A window that
  // resumed it meanwhile appended lines the trimmed copy lacks.
  const swap = await recheckThenAct(ctx, {
    guid,
    registration: { registered: true },
    files: pretrim === null ? [] : [pretrim],
  }, () => ({
    value: null,
    change: (current) =>
      findSession(current, guid) === undefined || findSession(current, newGuid) !== undefined
        ? current
        : replaceGuid(current, guid, newGuid),
  })).catch(refusalOf);
  if (!swap.done) {
    const why = swap.acted
      ? `The swap was not recorded: ${swap.reason}`
      : `The session changed while cmv was trimming it (${swap.reason})`;
    ctx.err.line(
      `  ${why}; the list keeps it, and the trimmed copy ${expected} is not registered.`,
      "red",
    );
    return null;
  }
  const registry = swap.registry;
  recordLineage(ctx, { kind: "trim", from: guid, to: newGuid });

  for (const line of outcome.lines.slice(0, 10)) ctx.out.line(`  ${line}`);
  // Only this trim's leftovers: cmv's hooks in another live window on this project keep
  // their own fresh temp files here, and those are not ours to remove.
  const ours = (name: string, mtime: number) =>
    mtime >= trimStartedAt && (name.startsWith(guid) || name.startsWith(newGuid));
  for (const name of removeTempFiles(ctx, { folder, select: ours })) {
    ctx.out.line(`  CMV left a temp file behind: ${name}; removing.`, "darkGray");
  }
  await movePretrimAside(ctx, { session, folder, pretrim, successor: newGuid });
  syncSessionIndex(ctx.paths, session.dir, registry);
  syncVault(ctx, { guids: [newGuid] });
  ctx.out.line();
  ctx.out.line(`  Session trimmed. New ID: ${newGuid}`, "green");
  return newGuid;
}

/**
 * cmv's copies of `session` that appeared in `folder` since `before` and that
 * no row or window has (a copy carries the session's history, or is an
 * unfinished one cmv named: another window's new session is left alone): to
 * the backup dir, the index re-synced.
 */
function setAsideNewCopies(
  ctx: AppContext,
  { session, folder, before, named }: {
    session: Session;
    folder: string;
    before: Set<string>;
    /** The ids cmv printed: an unfinished copy (empty, cut short) under one of them is cmv's. */
    named?: readonly string[];
  },
): void {
  const join = ctx.paths.path.join;
  const destDir = sessionBackupDir(ctx.paths, session.dir);
  const registry = readRegistry(ctx.paths);
  const original = join(folder, `${session.guid}.jsonl`);
  let moved = false;
  for (const entry of readDirOrEmpty(folder)) {
    const id = transcriptSessionId(entry.name);
    if (id === null || before.has(entry.name) || findSession(registry, id) !== undefined) continue;
    if (isSessionLive(ctx.paths, id)) continue;
    const path = join(folder, entry.name);
    // Only files are read: a pipe with no writer would block claudecm for good.
    if (!isFile(path)) continue;
    const unfinishedOfCmv = named?.includes(id) === true && !endsWithWholeLine(path);
    if (!unfinishedOfCmv && !continuesHistory(path, original)) continue;
    try {
      moveSessionAside(folder, id, { destDir, join });
      moved = true;
      ctx.err.line(`  cmv's unfinished copy ${entry.name} was moved to ${destDir}.`, "yellow");
    } catch {
      ctx.err.line(`  cmv's unfinished copy is still at ${join(folder, entry.name)}.`, "yellow");
    }
  }
  if (moved) syncSessionIndex(ctx.paths, session.dir, registry);
}

/** Run cmv; null (after saying why) when it could not be started. */
async function runTrim(
  ctx: AppContext,
  cmv: CmvAvailable,
  { guid, cwd }: { guid: string; cwd: string },
): Promise<TrimOutcome | null> {
  try {
    return await cmv.trim(guid, { cwd, timeoutMs: TRIM_TIMEOUT_MS });
  } catch (error) {
    // Spawning failed (cmv vanished, permission denied): one line, no stack trace.
    if (!(error instanceof UserError) || error instanceof InterruptedError) throw error;
    ctx.err.line("  Trim failed or no new session ID found.", "red");
    ctx.err.line(`  ${error.message}`);
    return null;
  }
}

/** Spec 11.13 step 5: the failure line, then the first five lines cmv printed. */
function reportNoNewId(ctx: AppContext, outcome: TrimOutcome): void {
  ctx.err.line("  Trim failed or no new session ID found.", "red");
  if (outcome.run.timedOut) {
    ctx.err.line(`  cmv trim was stopped after ${TRIM_TIMEOUT_MS / 60_000} minutes.`, "red");
  } else if (outcome.run.code !== 0) {
    ctx.err.line(`  cmv trim ended with exit code ${outcome.run.code}.`, "red");
  }
  // cmv reports its errors on stderr; parseTrimOutput strips colour codes and blank lines.
  const lines = [...outcome.lines, ...parseTrimOutput(outcome.run.stderr).lines];
  for (const line of lines.slice(0, 5)) ctx.err.line(`  ${line}`);
}

/**
 * Spec 11.13 step 8 and 14 rule 3: the trimmed file is not in the session's
 * project folder. Look for it in the other project folders only to say where
 * it is (the one scan across projects claudecm makes), never to adopt it:
 * copying it across was the April 2026 cross-project contamination.
 */
function reportMisplaced(
  ctx: AppContext,
  { expected, newGuid }: { expected: string; newGuid: string },
): void {
  const found = transcriptsElsewhere(ctx, expected);
  ctx.err.line();
  if (found.length === 0) {
    ctx.err.line(`  cmv reported session ${newGuid} but its transcript is not on disk.`, "red");
    ctx.err.line(`  Expected: ${expected}`, "red");
  } else {
    ctx.err.line("  CMV WROTE THE TRIMMED SESSION TO THE WRONG PROJECT.", "red");
    ctx.err.line(`  Expected: ${expected}`, "red");
    for (const actual of found) ctx.err.line(`  Actual:   ${actual}`, "red");
  }
  ctx.err.line(
    "  sessions.txt is unchanged and nothing was copied. Investigate before resuming.",
    "red",
  );
}

/** Files named like `expected` in the other project folders. */
function transcriptsElsewhere(ctx: AppContext, expected: string): string[] {
  const { join, basename } = ctx.paths.path;
  const name = basename(expected);
  // No projects dir: the file is nowhere.
  return subdirectoryNames(ctx.paths.projectsDir)
    .map((project) => join(ctx.paths.projectsDir, project, name))
    .filter((candidate) => candidate !== expected && isFile(candidate));
}

/**
 * Delete the `*.cmv-trim-tmp` files in `folder` whose mtime passes `select`;
 * returns their names. They are cmv's own scratch copies, never user data.
 */
function removeTempFiles(
  ctx: AppContext,
  { folder, select }: { folder: string; select: (name: string, mtimeMs: number) => boolean },
): string[] {
  const removed: string[] = [];
  for (const entry of readDirOrEmpty(folder)) {
    if (!entry.isFile || !entry.name.endsWith(TEMP_SUFFIX)) continue;
    const path = ctx.paths.path.join(folder, entry.name);
    try {
      if (!select(entry.name, Deno.statSync(path).mtime?.getTime() ?? 0)) continue;
      Deno.removeSync(path);
      removed.push(entry.name);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      ctx.err.line(
        `  Could not remove CMV temp file ${entry.name}: ${errorMessage(error)}`,
        "yellow",
      );
    }
  }
  return removed.sort();
}

/**
 * Whether `path` is a regular file, not empty, whose last byte ends a line;
 * false for anything else (gone meanwhile, a folder, a pipe, unreadable).
 */
function endsWithWholeLine(path: string): boolean {
  // Checked first: opening a pipe with no writer would block claudecm for good.
  if (!isFile(path)) return false;
  try {
    const file = Deno.openSync(path, { read: true });
    try {
      const size = file.statSync().size;
      if (size === 0) return false;
      file.seekSync(size - 1, Deno.SeekMode.Start);
      const last = new Uint8Array(1);
      return file.readSync(last) === 1 && last[0] === 0x0a;
    } finally {
      file.close();
    }
  } catch {
    return false;
  }
}
