/**
 * After claude exits (spec 11.15), in three phases so durable state comes
 * first: the operator may close the terminal the moment claude is gone.
 * 1. saveExitState: the row exists, is named, is #1, and is saved; tokens.
 * 2. saveExitSnapshot: `cmv snapshot auto-exit-<stamp>` in the background.
 * 3. offerExitActions: the size line, the trim when it pays, and the refresh
 *    when cmv could count the session and it is long enough to be worth it.
 * Every cmv call names the session (`-s <guid>`), never `--latest`.
 *
 * @module
 */

import { askSessionName } from "../session/ask_name.ts";
import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { trimSession } from "../trim/trim.ts";
import { syncVault } from "../vault/vault_sync.ts";
import { refreshSession } from "../refresh/refresh.ts";
import type { LaunchSettings } from "../launch/launch_setup.ts";
import { sayCmvMissingOnce } from "./cmv_notice.ts";
import { sayWayBack } from "./way_back.ts";
import { folderDefaultName, formatStamp } from "../../core/format.ts";
import { isDirectory } from "../../core/fs_checks.ts";
import { leafName } from "../../core/paths.ts";
import { findSession, mainSessions, namedSessionIds } from "../../core/registry.ts";
import {
  addAtTop,
  moveToTop,
  removeSession,
  renameSession,
  setTokens,
} from "../../core/registry_ops.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import { getSessionInfo } from "../../core/session_info.ts";
import { transcriptInOwnFolder } from "../../core/transcript_location.ts";
import type { Benchmark, CmvAvailable } from "../../platform/cmv.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";
import { withSpinner } from "../../ui/spinner.ts";
import { askYesNo } from "../../ui/prompt.ts";

/** The session claude just left. */
export interface PostExitOptions {
  guid: string;
  dir: string;
  /** The row carries the folder default, not a name the user gave: ask for one. */
  provisional?: boolean;
  /**
   * The session may have no row yet (a pass-through `-r` of an id the
   * registry lacks): register it under the folder default. Without this, a
   * row that is gone was moved away by another window (a fork or a trim
   * replaced it, or it was removed), and post-exit leaves the registry alone.
   */
  registerIfMissing?: boolean;
  /** With `registerIfMissing`: the name a row registered here gets (`fork --name`), not asked. */
  name?: string;
}

/** Trims pay for themselves only above this reduction (spec 11.15 step 9). */
const MIN_TRIM_PERCENT = 10;

/**
 * A refresh is offered from this many tokens on (cmv's count): a shorter
 * session resumes as cheaply as a fresh one primed with its skeleton.
 */
export const REFRESH_MIN_TOKENS = 50_000;

/** Run all three phases after a clean exit. */
export async function postExit(
  ctx: AppContext,
  settings: LaunchSettings,
  options: PostExitOptions,
): Promise<void> {
  ctx.out.line();
  ctx.out.line("  Session ended.");
  ctx.out.line();
  const saved = await saveExitState(ctx, options, { ask: true });
  if (saved === null) return;
  const state = await followClaudeMove(ctx, saved);
  // Said as soon as the row is saved: the window may be closed at any question after this.
  sayWayBack(ctx, state.guid);
  const cmv = await ctx.tools.cmv();
  let benchmark: Benchmark | null = null;
  if (cmv.available) {
    benchmark = await recordTokens(ctx, cmv, state);
    await saveExitSnapshot(ctx, cmv, state);
  } else {
    sayCmvMissingOnce(ctx);
  }
  showSize(ctx, state.guid);
  await offerExitActions(ctx, settings, { ...state, benchmark });
}

/**
 * A `/cd` inside claude moved the transcript to another folder's key: the
 * row follows it (as the next resume would) before cmv and the trim look
 * for the transcript in the row's folder.
 */
async function followClaudeMove(
  ctx: AppContext,
  state: { guid: string; dir: string },
): Promise<{ guid: string; dir: string }> {
  const row = findSession(readRegistry(ctx.paths), state.guid);
  if (row === undefined || transcriptInOwnFolder(ctx.paths, row)) return state;
  const { followRelocation } = await import("../move/relocation.ts");
  return { guid: state.guid, dir: (await followRelocation(ctx, row)).dir };
}

/**
 * Phase 1: the session's row is moved to #1 and saved; an unregistered
 * session is registered when the caller allows it (under the folder default
 * first, then renamed to what the user types; an answered `skip` removes
 * it). Whether the row is there is decided under the lock, on the registry
 * as it is now: a row another window replaced meanwhile is never re-created.
 * With `ask: false` nothing is asked: for an exit nobody may be there to
 * answer (a closed window). Returns null when there is no row to carry on
 * with.
 */
export async function saveExitState(
  ctx: AppContext,
  options: PostExitOptions,
  { ask }: { ask: boolean },
): Promise<{ guid: string; dir: string } | null> {
  const { guid, dir } = options;
  const fallback = folderDefaultName(leafName(ctx.paths, dir)) || "Unnamed";
  let provisional = options.provisional === true;
  // Decided inside the lock, on the registry as it is when the write happens.
  let gone = false;
  let unparsed = false;
  // Saved before the name question, which waits on a person who may be gone.
  const registry = await changeRegistry(ctx, (r) => {
    gone = false;
    unparsed = false;
    provisional = options.provisional === true;
    if (mainSessions(r).some((session) => session.guid === guid)) return moveToTop(r, guid);
    if (findSession(r, guid) !== undefined) return r; // archived: it stays there
    // A line that does not parse names it: a second row would be a duplicate the menus refuse.
    unparsed = namedSessionIds(r).has(guid);
    if (unparsed) return r;
    if (options.registerIfMissing !== true) {
      gone = true;
      return r;
    }
    provisional = options.name === undefined;
    return addAtTop(r, { guid, dir, desc: options.name ?? fallback, tokens: "" });
  });
  if (unparsed) {
    ctx.out.line(
      `  Session ${guid} is named by a line of sessions.txt that does not parse; fix that line ` +
        "(claudecm doctor shows it). Nothing else was added.",
      "yellow",
    );
    return null;
  }
  if (gone) {
    ctx.out.line(
      `  Session ${guid} is no longer in the list (another window forked, trimmed or ` +
        "removed it); the list was left as it is.",
      "yellow",
    );
    return null;
  }
  syncSessionIndex(ctx.paths, dir, registry);
  const name = provisional && ask ? askExitName(ctx, fallback) : null;
  if (name === "skip") {
    await changeRegistry(ctx, (r) => removeSession(r, guid, { ifPresent: true }));
    ctx.out.line("  Not saved to the session list.");
    return null;
  }
  if (name !== null) {
    const renamed = await changeRegistry(
      ctx,
      (r) => findSession(r, guid) === undefined ? r : renameSession(r, guid, name),
    );
    syncSessionIndex(ctx.paths, dir, renamed);
  }
  // A new session's transcript exists only now; a resumed one may have moved to a new inode.
  syncVault(ctx, { guids: [guid] });
  return { guid, dir };
}

/** The typed name, `skip`, or null to keep the default (Enter, or no answer at all). */
function askExitName(ctx: AppContext, fallback: string): string | null {
  const answer = askSessionName(
    ctx,
    `  Describe this session (Enter for '${fallback}', 'skip' to skip): `,
  );
  return answer?.toLowerCase() === "skip" ? "skip" : answer;
}

async function recordTokens(
  ctx: AppContext,
  cmv: CmvAvailable,
  state: { guid: string; dir: string },
): Promise<Benchmark | null> {
  const outcome = await cmv.benchmark(state.guid, { cwd: existingDir(state.dir, ctx) });
  if (!outcome.ok) {
    ctx.out.line("  Could not measure the session's tokens (cmv benchmark failed).", "darkGray");
    return null;
  }
  const tokens = outcome.benchmark.preTrimTokens;
  await changeRegistry(
    ctx,
    (r) =>
      findSession(r, state.guid) === undefined ? r : setTokens(r, state.guid, Math.round(tokens)),
  );
  return outcome.benchmark;
}

/** Phase 2: the exit snapshot, with a spinner; it runs detached, so it survives a closed window. */
async function saveExitSnapshot(
  ctx: AppContext,
  cmv: CmvAvailable,
  state: { guid: string; dir: string },
): Promise<void> {
  const label = `auto-exit-${formatStamp(ctx.now())}`;
  const snapshot = cmv.snapshot(label, state.guid, { cwd: existingDir(state.dir, ctx) });
  await withSpinner(ctx.out, snapshot.result, {
    label: "Saving snapshot...",
    describe: ({ run }) =>
      run.code === 0
        ? "Done."
        : run.timedOut
        ? "stopped: cmv did not finish within 2 minutes."
        : `failed (cmv exit ${run.code}).`,
  });
}

function showSize(ctx: AppContext, guid: string): void {
  const session = findSession(readRegistry(ctx.paths), guid);
  if (session === undefined) return;
  const info = getSessionInfo(ctx.paths, session, { now: ctx.now() });
  ctx.out.line(`  Current session: ${info.size} (${info.tokensText})`);
}

/**
 * Phase 3: the trim, offered only when the benchmark says it pays (spec
 * 11.15 step 9), then the refresh (step 10). Neither while the session is
 * open in another window: both replace the transcript that window appends to.
 */
async function offerExitActions(
  ctx: AppContext,
  settings: LaunchSettings,
  state: { guid: string; dir: string; benchmark: Benchmark | null },
): Promise<void> {
  if (isSessionLive(ctx.paths, state.guid)) {
    ctx.out.line("  Trim and refresh not offered: this session is open in another claude window.");
    return;
  }
  let guid = state.guid;
  if (state.benchmark !== null && shouldOfferTrim(ctx, state.benchmark)) {
    const trim = askYesNo(ctx.prompter, "  Trim this session? [y/N]: ", { defaultYes: false });
    if (trim) guid = await trimSession(ctx, { guid }) ?? guid;
  }
  // Refresh needs cmv (spec 12: its notice was given) and pays only on a long session.
  if (state.benchmark === null || state.benchmark.preTrimTokens < REFRESH_MIN_TOKENS) return;
  ctx.out.line();
  const refresh = askYesNo(
    ctx.prompter,
    "  Create a new compacted session, built from a structured rebuild of this one? [y/N]: ",
    { defaultYes: false },
  );
  if (refresh) await refreshSession(ctx, settings, { guid });
}

/** Says what a trim would recover; true when it is worth asking (at least MIN_TRIM_PERCENT). */
function shouldOfferTrim(ctx: AppContext, benchmark: Benchmark): boolean {
  // Rounded toward zero: 9.6% is said as 9%, not as the 10% it falls short of, and a 0.4% cost
  // as 0%, not -1%.
  const percent = Math.trunc(benchmark.reductionPercent) || 0;
  const breakEven = benchmark.breakEvenTurns === null
    ? "never pays back"
    : `pays back after ${benchmark.breakEvenTurns} turns`;
  if (benchmark.reductionPercent < MIN_TRIM_PERCENT) {
    ctx.out.line(
      `  Trim not offered: it would recover ${percent}% (${breakEven}); ` +
        `below ${MIN_TRIM_PERCENT}% it costs more than it saves.`,
    );
    return false;
  }
  ctx.out.line(`  A trim would recover ${percent}% of this session (${breakEven}).`);
  return true;
}

/** cmv runs in the session's directory when it still exists, else where claudecm runs. */
function existingDir(dir: string, ctx: AppContext): string {
  return isDirectory(dir) ? dir : ctx.cwd();
}
