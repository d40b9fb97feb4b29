/**
 * Show-List (spec 9): the header and the numbered rows of the main list,
 * one row highlighted in yellow when asked. Callers add their own footer.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { Session } from "../../core/registry.ts";
import { createSessionInfoCache, getSessionInfo } from "../../core/session_info.ts";
import { renderSessionRows } from "../../ui/session_list.ts";

/** Print `sessions` as the list; `highlight` is the 1-based row to mark, 0 for none. */
export function showList(ctx: AppContext, sessions: Session[], highlight = 0): void {
  const now = ctx.now();
  const cache = createSessionInfoCache();
  const rows = sessions.map((session) => ({
    session,
    info: getSessionInfo(ctx.paths, session, now, cache),
  }));
  ctx.out.line();
  ctx.out.line("  === Saved Sessions ===");
  ctx.out.line();
  for (const line of renderSessionRows(rows, highlight)) {
    ctx.out.line(line.text, line.highlighted ? "yellow" : undefined);
  }
}
