/**
 * Do-ViewArchived (spec 11.11), list mode's V: the archived sessions with
 * their size; unarchive (U#, back to #1 of the main list) or delete for good
 * (D#, the same typed confirmation as the edit list).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { deleteWithConfirmation } from "./delete_session.ts";
import { pick, reportChange } from "./edit_list.ts";
import { archivedSessions } from "../../core/registry.ts";
import { unarchiveRow } from "./row_changes.ts";
import { liveSessionIds } from "../../platform/live_sessions.ts";
import { createSessionInfoCache, getSessionInfo } from "../../core/session_info.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { FOLDER_GONE_MARK } from "../../ui/session_list.ts";

/** Run the archived view until the user goes back. */
export async function viewArchived(ctx: AppContext): Promise<void> {
  while (true) {
    const sessions = archivedSessions(readRegistry(ctx.paths));
    if (sessions.length === 0) {
      ctx.out.line("  No archived sessions.");
      return;
    }
    const cache = createSessionInfoCache();
    const live = liveSessionIds(ctx.paths);
    ctx.out.line();
    ctx.out.line("  === Archived Sessions ===");
    ctx.out.line();
    sessions.forEach((s, index) => {
      const { size, folderGone } = getSessionInfo(ctx.paths, s, {
        now: ctx.now(),
        cache,
        live: live.has(s.guid),
      });
      const gone = folderGone ? ` ${FOLDER_GONE_MARK}` : "";
      ctx.out.line(`  ${index + 1}. ${s.desc} [${s.dir}]${gone} ${size}`);
    });
    ctx.out.line();
    ctx.out.line("  U# = Unarchive  D# = Delete permanently  Q = Back");
    const answer = (ctx.prompter.ask("  > ") ?? "").trim();
    if (answer === "" || /^q$/i.test(answer)) return;
    const command = /^([ud])\s*(\d+)$/i.exec(answer);
    const session = command === null ? null : pick(ctx, { sessions, number: command[2] });
    if (command === null) {
      ctx.out.line("  Unknown command.", "yellow");
    } else if (session !== null && command[1].toLowerCase() === "u") {
      const found = await unarchiveRow(ctx, session.guid);
      reportChange(ctx.out, { done: found, what: `Unarchived: ${session.desc}`, session });
    } else if (session !== null) {
      await deleteWithConfirmation(ctx, session);
    }
  }
}
