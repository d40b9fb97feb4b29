/**
 * Refresh (spec 11.14): replace a long session with a fresh one primed by a
 * skeleton of the old. The new session's id comes only from claude's
 * `-p --output-format json` answer, never from a folder scan (a concurrent
 * session in the same folder would be picked up). The registry changes only
 * when claude answered with a session: [new] + others + [old, relabelled].
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import type { LaunchSettings } from "../launch/launch_setup.ts";
import { askSessionNameOrEnd } from "../session/ask_name.ts";
import { discardPrintSession, type PrintRunStart, printRunStart } from "../launch/print_session.ts";
import { judgeFreshAnswer } from "./fresh_answer.ts";
import { recordLineage } from "../session/lineage_record.ts";
import { syncVault } from "../vault/vault_sync.ts";
import { buildRefreshPrompt } from "./refresh_prompt.ts";
import { createTempDir, extract, removeQuietly } from "./refresh_scratch.ts";
import { errorMessage, UserError } from "../../core/errors.ts";
import { isDirectory, isFile } from "../../core/fs_checks.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import { type OsName, projectDirFor, transcriptPathFor } from "../../core/paths.ts";
import { findSession, isSessionId, mainSessions, type Registry } from "../../core/registry.ts";
import { addAtTop, moveToBottom, oldLabelFor, renameSession } from "../../core/registry_ops.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { type InterruptLatch, latchInterrupts } from "../../platform/interrupt_latch.ts";
import { askYesNo } from "../../ui/prompt.ts";

/** What to refresh. */
export interface RefreshOptions {
  /** The session being replaced; the skeleton is built from its transcript. */
  guid: string;
  /** How long `claude -p` may take; {@linkcode PRINT_TIMEOUT_MS} by default. */
  timeoutMs?: number;
}

/** How long `claude -p` may take to prime the new session. */
export const PRINT_TIMEOUT_MS = 10 * 60_000;

/**
 * Refresh session `guid`. Returns the new session's id, or null when no
 * session was created (the registry is then unchanged); failures are
 * reported on the way, none is thrown. Ctrl-C at any point until the
 * registry is written cancels it (InterruptedError): the registry stays as it
 * was and the `-p` session's files are removed, as after any failure, so no
 * orphan is left.
 */
export async function refreshSession(
  ctx: AppContext,
  settings: LaunchSettings,
  options: RefreshOptions,
): Promise<string | null> {
  const { guid } = options;
  const session = findSession(readRegistry(ctx.paths), guid);
  const currentDesc = session?.desc || "Unnamed";
  const dir = session?.dir ?? ctx.cwd();
  // The new session is made, cleaned up and registered in this folder: one that is gone (a
  // worktree removed while claude ran) would have claude -p run and leave files elsewhere.
  if (!isDirectory(dir)) return sayFolderGone(ctx, dir);
  // Another window's claude is writing it: a skeleton of it now misses what comes next, and
  // relabelling it "(old)" would mislabel the session that window goes on with.
  if (isSessionLive(ctx.paths, guid)) {
    ctx.out.line("  No refresh: the session is open in another claude window now.", "yellow");
    return null;
  }
  const answer = askSessionNameOrEnd(ctx, `  Name for new session (Enter for '${currentDesc}'): `);
  // No answer at all (input closed) starts nothing, as at a new session's name (DESIGN.md 5.14).
  if (answer === "ended") {
    ctx.out.line("  No answer: no refresh.");
    return null;
  }
  const name = answer ?? currentDesc;
  const tempDir = createTempDir(ctx, guid);
  const start = printRunStart(ctx, dir);
  // The ids the -p run may have written under: chosen here when claude takes --session-id,
  // and whatever its answer names.
  const printIds: Array<string | null> = [];
  let kept = false;
  let latch: InterruptLatch | undefined;
  try {
    const extraction = extract(ctx, { guid, dir, desc: currentDesc, tempDir });
    const prompt = await reviewPrompt(ctx, { prompt: buildRefreshPrompt(extraction), tempDir });
    if (prompt === null) return null;
    // Again right before claude -p: the editor's wait is long enough for the folder to go.
    if (!isDirectory(dir)) return sayFolderGone(ctx, dir);
    latch = latchInterrupts();
    const fresh = await createFresh(ctx, {
      settings,
      guid,
      dir,
      prompt,
      start,
      printIds,
      latch,
      timeoutMs: options.timeoutMs ?? PRINT_TIMEOUT_MS,
    });
    if (fresh === null) return null;
    ctx.out.line("  Done.");
    const tokens = await measureTokens(ctx, { guid: fresh, dir });
    latch.check();
    if (!await recordRefresh(ctx, { guid, fresh, dir, name, tokens })) return null;
    kept = true;
    recordLineage(ctx, { kind: "refresh", from: guid, to: fresh });
    syncVault(ctx, { guids: [fresh] });
    ctx.out.line();
    ctx.out.line(`  Fresh session created: ${name}`, "green");
    ctx.out.line("  Old session moved to bottom of list.");
    return fresh;
  } finally {
    if (!kept) {
      for (const id of new Set(printIds)) {
        await discardPrintSession(ctx, start, { dir, guid: id, what: "the cancelled refresh" });
      }
    }
    latch?.release();
    removeQuietly(tempDir);
  }
}

function sayFolderGone(ctx: AppContext, dir: string): null {
  ctx.out.line(`  No refresh: the session's folder is gone (${dir}).`, "yellow");
  return null;
}

/**
 * Run `claude -p` with the prompt in `dir`; returns the session it started,
 * or null (said) when its answer names none of this run's. Every id the run
 * may have written under goes into `printIds`, for the clean-up.
 */
async function createFresh(
  ctx: AppContext,
  { settings, guid, dir, prompt, start, printIds, latch, timeoutMs }: {
    settings: LaunchSettings;
    guid: string;
    dir: string;
    prompt: string;
    start: PrintRunStart;
    printIds: Array<string | null>;
    latch: InterruptLatch;
    timeoutMs: number;
  },
): Promise<string | null> {
  const claude = await ctx.tools.claude();
  const chosen = (await claude.features()).sessionId ? crypto.randomUUID() : null;
  printIds.push(chosen);
  ctx.out.line();
  ctx.out.line("  Creating fresh session, please wait...");
  const answer = await claude.print([
    ...settings.permissionArgs,
    ...(chosen === null ? [] : ["--session-id", chosen]),
  ], { cwd: dir, prompt, timeoutMs });
  // With --session-id this run's session is the id chosen: another id claude names (the old
  // session's, another row's) is not this run's to register or to remove.
  if (chosen === null) printIds.push(answer.sessionId);
  latch.check();
  const named = answer.sessionId;
  const verdict = judgeFreshAnswer(answer, {
    guid,
    chosen,
    before: start.before,
    transcriptWritten: named !== null && isSessionId(named) &&
      isFile(transcriptPathFor(ctx.paths, dir, named)),
    timeoutMs,
    projectDir: projectDirFor(ctx.paths, dir),
  });
  if ("fresh" in verdict) return verdict.fresh;
  ctx.err.line(
    `  Refresh did not create a new session (${verdict.why}). The old session is unchanged.`,
    "yellow",
  );
  return null;
}

/** Write the refresh into the registry; false (said) when the old session was opened meanwhile. */
async function recordRefresh(
  ctx: AppContext,
  change: { guid: string; fresh: string; dir: string; name: string; tokens: string },
): Promise<boolean> {
  // Under the lock, as every step that changes what a session is: still not open elsewhere.
  let openElsewhere = false;
  await changeRegistry(ctx, (r) => {
    openElsewhere = isSessionLive(ctx.paths, change.guid);
    return openElsewhere ? r : withRefreshed(r, { ...change, os: ctx.os });
  });
  if (!openElsewhere) return true;
  ctx.err.line(
    "  Refresh not recorded: the old session was opened in another claude window meanwhile. " +
      "The old session is unchanged.",
    "yellow",
  );
  return false;
}

/** The registry with the fresh session first and the old one, relabelled, last. */
function withRefreshed(
  registry: Registry,
  change: { guid: string; fresh: string; dir: string; name: string; tokens: string; os: OsName },
): Registry {
  // Another row's session is never taken over: its folder, name and tokens are that row's.
  if (findSession(registry, change.fresh) !== undefined) {
    throw new UserError(`the new session ${change.fresh} is already in the list; nothing changed`);
  }
  let next = registry;
  // Decided on the registry read under the lock: another window may have moved the old row.
  if (findSession(next, change.guid) !== undefined) {
    next = renameSession(next, change.guid, oldLabelFor(next, change.guid, { os: change.os }));
    const isMain = mainSessions(next).some((session) => session.guid === change.guid);
    if (isMain) next = moveToBottom(next, change.guid);
  }
  return addAtTop(next, {
    guid: change.fresh,
    dir: change.dir,
    desc: change.name,
    tokens: change.tokens,
  });
}

/**
 * Offer the prompt in the editor (spec 11.14 steps 1-3); returns the text to
 * send, or null when the editor failed or was interrupted (`:cq`, Ctrl-C):
 * the refresh is then abandoned, with the registry as it was. The file is in
 * this refresh's own folder: two windows refreshing at once never edit (or
 * remove) each other's prompt (spec 14 item 6).
 */
async function reviewPrompt(
  ctx: AppContext,
  { prompt, tempDir }: { prompt: string; tempDir: string },
): Promise<string | null> {
  const review = askYesNo(
    ctx.prompter,
    "  Would you like to view/edit the compaction prompt and skeleton before proceeding? " +
      "(Save and close when done) [y/N]: ",
    { defaultYes: false },
  );
  if (!review) return prompt;
  const file = ctx.paths.path.join(tempDir, "refresh-prompt.md");
  Deno.writeTextFileSync(file, prompt);
  try {
    const code = await ctx.tools.edit(file);
    if (code !== 0) {
      ctx.err.line(
        `  The editor exited with code ${code}: refresh cancelled. The old session is unchanged.`,
        "yellow",
      );
      return null;
    }
    try {
      return Deno.readTextFileSync(file);
    } catch (error) {
      // The editor (or a hook of it) moved or removed the file: nothing to send.
      ctx.err.line(
        `  The edited prompt cannot be read (${errorMessage(error)}): refresh cancelled. ` +
          "The old session is unchanged.",
        "yellow",
      );
      return null;
    }
  } finally {
    removeQuietly(file);
  }
}

async function measureTokens(
  ctx: AppContext,
  { guid, dir }: { guid: string; dir: string },
): Promise<string> {
  const cmv = await ctx.tools.cmv();
  if (!cmv.available) return "";
  const outcome = await cmv.benchmark(guid, { cwd: isDirectory(dir) ? dir : ctx.cwd() });
  return outcome.ok ? String(Math.round(outcome.benchmark.preTrimTokens)) : "";
}
