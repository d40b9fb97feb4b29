/**
 * `claudecm list`: the registry with each session's info. With `--json` it
 * is read-only and never prompts, for scripts; without it, the table.
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
} from "../../core/session_info.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** One session as `list --json` prints it. */
export interface ListedSession {
  number: number;
  guid: string;
  dir: string;
  desc: string;
  tokens: number | null;
  archived: boolean;
  /** `ok`, `missing` (nowhere on disk) or `unreadable` (a permission or I/O error). */
  status: SessionInfo["status"];
  /** For `unreadable`: what could not be read and why. */
  problem: string | null;
  transcript: string;
  sizeBytes: number | null;
  lastActivity: string | null;
  dateIsFallback: boolean;
}

/** Options for {@linkcode runList}. */
export interface ListOptions {
  json: boolean;
}

/** Print the registry; returns the exit code. */
export async function runList(ctx: AppContext, options: ListOptions): Promise<number> {
  if (options.json) {
    ctx.out.line(JSON.stringify(listRegistryJson(ctx), null, 2));
    return ExitCode.ok;
  }
  // Loaded here, not at the top: `list --json` is a script's call and starts near the floor.
  const [{ bootstrap }, { showList }] = await Promise.all([
    import("../bootstrap/bootstrap.ts"),
    import("./show_list.ts"),
  ]);
  await bootstrap(ctx, { mayPrompt: true });
  const registry = readRegistry(ctx.paths);
  const sessions = mainSessions(registry);
  if (sessions.length === 0) {
    ctx.out.line("  No saved sessions.");
    return ExitCode.ok;
  }
  showList(ctx, sessions);
  const archivedCount = archivedSessions(registry).length;
  ctx.out.line();
  ctx.out.line(
    `  ${sessions.length} session(s)` + (archivedCount ? `, ${archivedCount} archived` : ""),
  );
  return ExitCode.ok;
}

/** The registry, main and archived, with each session's info and the lines that did not parse. */
export function listRegistryJson(ctx: AppContext): {
  sessions: ListedSession[];
  archived: ListedSession[];
  malformedLines: Array<{ lineNumber: number; text: string; reason: string }>;
} {
  const registry = readRegistry(ctx.paths);
  const now = ctx.now();
  const cache = createSessionInfoCache();
  const describe = (archived: boolean) => (session: Session, index: number): ListedSession => {
    const info = getSessionInfo(ctx.paths, session, now, cache);
    return {
      number: index + 1,
      guid: session.guid,
      dir: session.dir,
      desc: session.desc,
      tokens: session.tokens === "" ? null : Number(session.tokens),
      archived,
      status: info.status,
      problem: info.problem,
      transcript: info.transcriptPath,
      sizeBytes: info.sizeBytes,
      lastActivity: info.date?.toISOString() ?? null,
      dateIsFallback: info.dateIsFallback,
    };
  };
  return {
    sessions: mainSessions(registry).map(describe(false)),
    archived: archivedSessions(registry).map(describe(true)),
    malformedLines: malformedLines(registry).map((line) => ({
      lineNumber: line.lineNumber,
      text: line.raw,
      reason: line.reason,
    })),
  };
}
