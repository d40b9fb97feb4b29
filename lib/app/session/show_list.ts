/**
 * Show-List (spec 9): the title, the column header and the numbered rows of
 * a list, one row highlighted in yellow when asked, sessions open in a claude
 * window now marked `[live]`, folders that are gone marked, names cut to a
 * terminal's width, then the legend of every mark shown. Callers add their
 * own footer.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { liveSessionIds } from "../../platform/live_sessions.ts";
import type { Session } from "../../core/registry.ts";
import {
  createSessionInfoCache,
  getSessionInfo,
  type SessionInfoCache,
} from "../../core/session_info.ts";
import { renderSessionTable } from "../../ui/session_list.ts";
import { rememberShown } from "../shown_list.ts";

/** Options for {@linkcode showList}. */
export interface ShowListOptions {
  /** The list number of the row to mark, 0 (the default) for none. */
  highlight?: number;
  /**
   * Each session's number in the list, for a filtered view (search): a view
   * never numbers by its own positions, which `resume N` would take for list
   * numbers. By default, the position in `sessions` (the whole list).
   */
  numbers?: readonly number[];
  /**
   * The title above the table; `Saved Sessions` by default. Null for none: the
   * plain (piped) list starts with its one header line.
   */
  title?: string | null;
  /** Lookups this run already made (the bootstrap's). */
  cache?: SessionInfoCache;
}

/** Print `sessions` as the list. */
export function showList(
  ctx: AppContext,
  sessions: Session[],
  options: ShowListOptions = {},
): void {
  const now = ctx.now();
  const cache = options.cache ?? createSessionInfoCache();
  const live = liveSessionIds(ctx.paths);
  const rows = sessions.map((session, index) => ({
    session,
    number: options.numbers?.[index] ?? index + 1,
    info: getSessionInfo(ctx.paths, session, { now, cache, live: live.has(session.guid) }),
    live: live.has(session.guid),
  }));
  if (options.title !== null) {
    ctx.out.line();
    ctx.out.line(`  === ${options.title ?? "Saved Sessions"} ===`);
    ctx.out.line();
  }
  const table = renderSessionTable(rows, {
    highlight: options.highlight ?? 0,
    // Names are cut to a terminal's width only; piped output keeps them whole.
    maxWidth: ctx.out.terminal ? ctx.out.columns : undefined,
  });
  ctx.out.line(table.header);
  for (const line of table.lines) {
    ctx.out.line(line.text, line.highlighted ? "yellow" : undefined);
  }
  if (table.legend.length > 0) {
    ctx.out.line();
    for (const entry of table.legend) ctx.out.line(`  ${entry}`);
  }
  // What a number typed later in this terminal is checked against (issue 33.3).
  rememberShown(ctx, rows.map((row) => [row.number, row.session.guid]));
}
