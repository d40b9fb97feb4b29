/**
 * `claudecm resume N` (old form `claudecm N`): resume session #N of the
 * list (spec 11.2 and 11.9), or the session a saved name or an id names.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { prepareLaunch } from "../launch/launch_setup.ts";
import { resumePicked } from "./resume_picked.ts";
import { showList } from "../session/show_list.ts";
import { resolveSession, SessionRefError } from "../session/resolve_session.ts";
import { ExitCode } from "../../core/errors.ts";
import { mainSessions } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** Resume the session `ref` names (a list number, an id or a saved name); returns the exit code. */
export async function runResume(ctx: AppContext, options: { ref: string }): Promise<number> {
  const setup = await prepareLaunch(ctx);
  if ("reexecExitCode" in setup) return setup.reexecExitCode;
  const registry = readRegistry(ctx.paths);
  const sessions = mainSessions(registry);
  if (sessions.length === 0) {
    // Nothing was resumed, as for an N past the end of a non-empty list.
    ctx.err.line("  No saved sessions.", "red");
    return ExitCode.failure;
  }
  let resolved;
  try {
    resolved = resolveSession(ctx, options.ref, { registry, verb: "resume" });
  } catch (error) {
    if (!(error instanceof SessionRefError)) throw error;
    showList(ctx, sessions);
    ctx.out.line();
    ctx.err.line(`  ${sentence(error.message)}`, "red");
    return error.exitCode;
  }
  if (!resolved.archived) showList(ctx, sessions, { highlight: resolved.number });
  ctx.out.line();
  return await resumePicked(ctx, { settings: setup.settings, session: resolved.session });
}

/** `no session #9: the list has 2` as a line of its own: `No session #9: the list has 2.` */
function sentence(message: string): string {
  return `${message[0].toUpperCase()}${message.slice(1)}${/[.)]$/.test(message) ? "" : "."}`;
}
