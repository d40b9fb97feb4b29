/**
 * `claudecm list`: the registry with each session's info. With `--json` it
 * is read-only and never prompts, for scripts. In a terminal (stdin and
 * stdout, TERM not `dumb`) it is the picker, unless `--numbers` or
 * `"menu": "numbers"` asks for the numbered menu; the menu, list mode
 * (spec 11.1), is also what `--interactive` gets without a terminal;
 * otherwise the table.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { ExitCode } from "../../core/errors.ts";
import {
  archivedSessions,
  mainSessions,
  malformedLines,
  type Session,
} from "../../core/registry.ts";
import {
  createSessionInfoCache,
  getSessionInfo,
  type SessionInfo,
  type SessionInfoCache,
} from "../../core/session_info.ts";
import { liveSessionIds } from "../../platform/live_sessions.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { safeJson } from "../../core/safe_text.ts";
import { NO_SESSIONS } from "../../ui/session_list.ts";

/** One session as `list --json` prints it. */
export interface ListedSession {
  number: number;
  guid: string;
  dir: string;
  desc: string;
  tokens: number | null;
  archived: boolean;
  /**
   * `ok`, `new` (open in a claude that has not saved a first message), `missing`
   * (nowhere on disk) or `unreadable` (a permission or I/O error).
   */
  status: SessionInfo["status"];
  /** For `unreadable`: what could not be read and why. */
  problem: string | null;
  transcript: string;
  sizeBytes: number | null;
  lastActivity: string | null;
  dateIsFallback: boolean;
  /** A claude is running on it now (its pid manifest is live). */
  live: boolean;
  /** Its folder is gone (nothing, or a file, there): `claudecm move` makes it follow. */
  folderGone: boolean;
}

/** Options for {@linkcode runList}. */
export interface ListOptions {
  json: boolean;
  /** List mode even when stdin is not a terminal (the old forms, scripted input). */
  interactive?: boolean;
  /** The numbered menu in a terminal, not the picker (`--numbers`). */
  numbers?: boolean;
}

/** Print the registry, or run list mode; returns the exit code. */
export async function runList(ctx: AppContext, options: ListOptions): Promise<number> {
  if (options.json) {
    ctx.out.line(safeJson(listRegistryJson(ctx), 2));
    return ExitCode.ok;
  }
  if (ctx.interactive && !options.numbers && ctx.env("TERM") !== "dumb") {
    const { menuSetting } = await import("./menu_setting.ts");
    if (menuSetting(ctx) === "picker") return await openPicker(ctx);
  }
  if (options.interactive || ctx.interactive) {
    const { runListMode } = await import("./list_mode.ts");
    return await runListMode(ctx);
  }
  // Loaded here, not at the top: `list --json` is a script's call and starts near the floor.
  const [{ bootstrap }, { showList }, { warnMalformedLines }] = await Promise.all([
    import("../bootstrap/bootstrap.ts"),
    import("../session/show_list.ts"),
    import("./malformed_warning.ts"),
  ]);
  // The table needs nothing typed (DESIGN.md 5.2): without a saved machine name, the hostname.
  // One set of transcript lookups for the bootstrap's look at every row and the table's.
  const cache = createSessionInfoCache();
  await bootstrap(ctx, { mayPrompt: false, locateCache: cache });
  const registry = readRegistry(ctx.paths);
  warnMalformedLines(ctx, registry);
  const sessions = mainSessions(registry);
  if (sessions.length === 0) {
    ctx.out.line(`  ${NO_SESSIONS}`);
    return ExitCode.ok;
  }
  // Piped, the table starts with its one header line (issue 31).
  showList(ctx, sessions, { cache, title: null });
  const archivedCount = archivedSessions(registry).length;
  ctx.out.line();
  ctx.out.line(
    `  ${sessions.length} session(s)` + (archivedCount ? `, ${archivedCount} archived` : ""),
  );
  return ExitCode.ok;
}

/** The picker (issue 34), in the terminal this run has on stdin and stdout. */
async function openPicker(ctx: AppContext): Promise<number> {
  const [
    { prepareLaunch },
    { runPicker },
    { processTerminal },
    { ScreenUnavailable },
    { warnMalformedLines },
  ] = await Promise.all([
    import("../launch/launch_setup.ts"),
    import("../picker/picker.ts"),
    import("../../ui/picker/process_terminal.ts"),
    import("../../ui/picker/screen.ts"),
    import("./malformed_warning.ts"),
  ]);
  // One set of transcript lookups for the bootstrap's look at every row and the first rows'.
  const cache = createSessionInfoCache();
  const setup = await prepareLaunch(ctx, { requireClaude: false, locateCache: cache });
  if ("reexecExitCode" in setup) return setup.reexecExitCode;
  warnMalformedLines(ctx, readRegistry(ctx.paths));
  try {
    return await runPicker(ctx, {
      settings: setup.settings,
      cache,
      terminal: processTerminal({ os: ctx.os }),
      colour: ctx.env("NO_COLOR") === undefined,
    });
  } catch (error) {
    // A terminal that refuses raw mode still has the numbered menu, which reads lines.
    if (!(error instanceof ScreenUnavailable)) throw error;
    const { runListMode } = await import("./list_mode.ts");
    return await runListMode(ctx);
  }
}

/** The registry, main and archived, with each session's info and the lines that did not parse. */
function listRegistryJson(ctx: AppContext): {
  sessions: ListedSession[];
  archived: ListedSession[];
  malformedLines: Array<{ lineNumber: number; text: string; reason: string }>;
} {
  const registry = readRegistry(ctx.paths);
  // One look at the running claudes and one folder listing serve both sections.
  const shared = { live: liveSessionIds(ctx.paths), cache: createSessionInfoCache() };
  return {
    sessions: describeSessions(ctx, mainSessions(registry), { archived: false, ...shared }),
    archived: describeSessions(ctx, archivedSessions(registry), { archived: true, ...shared }),
    malformedLines: malformedLines(registry).map((line) => ({
      lineNumber: line.lineNumber,
      text: line.raw,
      reason: line.reason,
    })),
  };
}

/**
 * `sessions` as `--json` prints them, numbered from 1 in the order given.
 * `live` and `cache` may be shared by several calls over one registry.
 */
export function describeSessions(
  ctx: AppContext,
  sessions: Session[],
  options: { archived: boolean; live?: Set<string>; cache?: SessionInfoCache },
): ListedSession[] {
  const now = ctx.now();
  const cache = options.cache ?? createSessionInfoCache();
  const live = options.live ?? liveSessionIds(ctx.paths);
  return sessions.map((session, index) => {
    const info = getSessionInfo(ctx.paths, session, { now, cache, live: live.has(session.guid) });
    return {
      number: index + 1,
      guid: session.guid,
      dir: session.dir,
      desc: session.desc,
      tokens: session.tokens === "" ? null : Number(session.tokens),
      archived: options.archived,
      status: info.status,
      problem: info.problem,
      transcript: info.transcriptPath,
      sizeBytes: info.sizeBytes,
      lastActivity: info.date?.toISOString() ?? null,
      dateIsFallback: info.dateIsFallback,
      live: live.has(session.guid),
      folderGone: info.folderGone,
    };
  });
}
