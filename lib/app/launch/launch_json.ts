/**
 * The JSON document of a command that launches claude, run with `--json`
 * (`fork N`, `new --name NAME`; issue 33.2): once claude exits, the session
 * the launch left in the list, in the shape the list's edits print theirs
 * (edit/verbs.ts): its id, name and list number, and what happened. The
 * run itself is a `jsonRunContext`'s (context.ts): its lines on stderr,
 * nothing asked.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { listNumbersOf } from "../session/list_numbers.ts";
import { findSession } from "../../core/registry.ts";
import { safeJson } from "../../core/safe_text.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** What a launch produced, for its document. */
export interface LaunchReport {
  /** The session the launch made (the fork, the new session); null when it made none. */
  sessionId: string | null;
  /** The status when the session is in the list: `forked`, `started`. */
  status: string;
  /** claudecm's exit code for the run. */
  exitCode: number;
  /** More fields, after these (`forkOf`). */
  details?: Record<string, unknown>;
}

/**
 * Print `report` as the run's one JSON document on `ctx.out`: the session's
 * row as the list has it now (post-exit may have named it), or status
 * `no-session` when claude saved none (it exited before a first message).
 * One line, the last on stdout: claude writes there too (it inherits it),
 * so a script reads the document with `tail -n 1`.
 */
export function printLaunchJson(ctx: AppContext, report: LaunchReport): void {
  const registry = readRegistry(ctx.paths);
  const row = report.sessionId === null ? undefined : findSession(registry, report.sessionId);
  const body = {
    sessionId: row?.guid ?? null,
    name: row?.desc ?? null,
    number: row === undefined ? null : listNumbersOf(registry).get(row.guid) ?? null,
    status: row === undefined ? "no-session" : report.status,
    exitCode: report.exitCode,
    ...report.details,
  };
  ctx.out.line(safeJson(body));
}
