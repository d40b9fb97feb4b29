/**
 * `resume N` on a session whose folder is gone: one question for where the
 * folder is now. Enter cancels and nothing is launched; a path runs
 * `claudecm move` from the registered folder to it, then the resume goes on
 * there.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { refusedBeforeAsking } from "../save_check.ts";
import { moveFolder } from "./move.ts";
import { UserError } from "../../core/errors.ts";
import { findSession, type Session } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** Ask where `session`'s folder went and move its sessions there; the moved row, or null. */
export async function askWhereFolderWent(
  ctx: AppContext,
  session: Session,
): Promise<Session | null> {
  ctx.err.line(`  The session's directory no longer exists: ${session.dir}`, "red");
  // Its rows could not follow: the folder is not asked for.
  if (refusedBeforeAsking(ctx, "Moving its sessions to where the folder went")) return null;
  const typed = (ctx.prompter.ask("  Where is it now? New path (Enter cancels): ") ?? "").trim();
  if (typed === "") {
    ctx.out.line("  Not resumed.");
    return null;
  }
  try {
    await moveFolder(ctx, { from: session.dir, to: typed });
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    ctx.err.line(`  ${error.message}`, "red");
    return null;
  }
  return findSession(readRegistry(ctx.paths), session.guid) ?? null;
}
