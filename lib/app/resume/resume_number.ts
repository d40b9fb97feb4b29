/**
 * `claudecm resume N` (old form `claudecm N`): resume session #N of the
 * list (spec 11.2 and 11.9).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { prepareLaunch } from "../launch/launch_setup.ts";
import { resumePicked } from "./resume_picked.ts";
import { showList } from "../list/show_list.ts";
import { ExitCode } from "../../core/errors.ts";
import { mainSessions } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** Resume main session #`number`; returns the exit code. */
export async function runResume(ctx: AppContext, options: { number: number }): Promise<number> {
  const setup = await prepareLaunch(ctx);
  if ("reexecExitCode" in setup) return setup.reexecExitCode;
  const sessions = mainSessions(readRegistry(ctx.paths));
  if (sessions.length === 0) {
    // Nothing was resumed, as for an N past the end of a non-empty list.
    ctx.err.line("  No saved sessions.", "red");
    return ExitCode.failure;
  }
  showList(ctx, sessions, { highlight: options.number });
  ctx.out.line();
  const session = sessions[options.number - 1];
  if (session === undefined) {
    ctx.err.line(`  No session #${options.number}: the list has ${sessions.length}.`, "red");
    return ExitCode.failure;
  }
  return await resumePicked(ctx, { settings: setup.settings, session });
}
