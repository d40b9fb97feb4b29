/**
 * Do-EditList (spec 11.10), list mode's E: rename (R#), change path (P#),
 * archive (A#), delete (D#) and move (M#,#) main sessions, until Q, Enter
 * or the end of input. Every change is made by session id under the
 * registry lock, so another window's change in between is never undone.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { refusedBeforeAsking } from "../save_check.ts";
import { askSessionName } from "../session/ask_name.ts";
import { changeRegistry } from "../registry.ts";
import { changeSessionPath } from "./change_path.ts";
import { deleteWithConfirmation } from "./delete_session.ts";
import { namedTwice } from "./named_twice.ts";
import { isFolderGone } from "../../core/fs_checks.ts";
import { parseWholeNumber } from "../../core/numbers.ts";
import { mainSessions, type Session } from "../../core/registry.ts";
import { moveSession } from "../../core/registry_ops.ts";
import { archiveRow, renameRow } from "./row_changes.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { FOLDER_GONE_MARK } from "../../ui/session_list.ts";
import type { Output } from "../../ui/output.ts";

/** Run the edit list until the user is done. */
export async function editList(ctx: AppContext): Promise<void> {
  while (true) {
    const sessions = mainSessions(readRegistry(ctx.paths));
    ctx.out.line();
    ctx.out.line("  === Edit Sessions ===");
    ctx.out.line();
    for (const [index, s] of sessions.entries()) {
      // Marked as the list marks it: P# is how this list makes it follow.
      const gone = isFolderGone(s.dir) ? ` ${FOLDER_GONE_MARK}` : "";
      ctx.out.line(`  ${index + 1}. ${s.desc} [${s.dir}]${gone}`);
    }
    ctx.out.line();
    ctx.out.line("  R# = Rename  P# = Path  A# = Archive  D# = Delete  M#,# = Move  Q = Done");
    const answer = (ctx.prompter.ask("  > ") ?? "").trim();
    if (answer === "" || /^q$/i.test(answer)) return;
    const single = /^([rpad])\s*(\d+)$/i.exec(answer);
    const move = /^m\s*(\d+)\s*,\s*(\d+)$/i.exec(answer);
    if (single !== null) {
      const session = pick(ctx, { sessions, number: single[2] });
      if (session !== null) {
        await editSession(ctx, { key: single[1].toLowerCase() as EditKey, session });
      }
    } else if (move !== null) {
      await moveOne(ctx, { sessions, from: Number(move[1]), to: Number(move[2]) });
    } else {
      ctx.out.line("  Unknown command.", "yellow");
    }
  }
}

/** The session #`number` of `sessions`, or null after saying there is none. */
export function pick(
  ctx: AppContext,
  { sessions, number }: { sessions: Session[]; number: string },
): Session | null {
  const value = parseWholeNumber(number);
  const session = value === null ? undefined : sessions[value - 1];
  if (session === undefined) {
    ctx.out.line(`  No session #${number}: the list has ${sessions.length}.`, "red");
    return null;
  }
  return session;
}

/** The edit list's one-session commands: R#, P#, A#, D#. */
export type EditKey = "r" | "p" | "a" | "d";

/** R#, P#, A# or D# on `session`, with their questions (the picker's keys run these too). */
export async function editSession(
  ctx: AppContext,
  { key, session }: { key: EditKey; session: Session },
): Promise<void> {
  const { guid } = session;
  if (key === "a" && namedTwice(ctx, guid)) return;
  switch (key) {
    case "r": {
      if (refusedBeforeAsking(ctx, "Renaming a session")) return;
      const name = askSessionName(ctx, `  New name for '${session.desc}' (Enter to keep): `);
      if (name === null) return;
      reportChange(ctx.out, {
        done: await renameRow(ctx, guid, name),
        what: `Renamed: ${name}`,
        session,
      });
      return;
    }
    case "p":
      return await changeSessionPath(ctx, session);
    case "a":
      reportChange(ctx.out, {
        done: await archiveRow(ctx, guid),
        what: `Archived: ${session.desc}`,
        session,
      });
      return;
    case "d":
      await deleteWithConfirmation(ctx, session);
      return;
  }
}

/** Say what was done, or that another window changed the row first and nothing was. */
export function reportChange(
  out: Output,
  { done, what, session }: { done: boolean; what: string; session: Session },
): void {
  if (done) out.line(`  ${what}`, "green");
  else out.line(`  '${session.desc}' changed in another window meanwhile; nothing done.`, "yellow");
}

async function moveOne(
  ctx: AppContext,
  { sessions, from, to }: { sessions: Session[]; from: number; to: number },
): Promise<void> {
  const session = pick(ctx, { sessions, number: String(from) });
  if (session === null || pick(ctx, { sessions, number: String(to) }) === null) return;
  let moved = false;
  await changeRegistry(ctx, (r) => {
    // Positions are what the user saw; if another window reordered the list since, do nothing.
    const now = mainSessions(r);
    moved = false;
    if (now[from - 1]?.guid !== session.guid || now.length !== sessions.length) return r;
    moved = true;
    return moveSession(r, from, to);
  });
  ctx.out.line(
    moved ? `  Moved: ${session.desc} to #${to}` : "  The list changed meanwhile; nothing moved.",
    moved ? "green" : "yellow",
  );
}
