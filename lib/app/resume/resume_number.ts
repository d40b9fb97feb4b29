/**
 * `claudecm resume N` (old form `claudecm N`): resume session #N of the
 * list (spec 11.2 and 11.9).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { prepareLaunch } from "../launch/launch_setup.ts";
import { changeRegistry } from "../registry.ts";
import { resumeSession } from "./resume_session.ts";
import { showList } from "../list/show_list.ts";
import { ExitCode } from "../../core/errors.ts";
import { mainSessions } from "../../core/registry.ts";
import { moveToTop } from "../../core/registry_ops.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { probePath } from "../../core/fs_checks.ts";

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
  showList(ctx, sessions, options.number);
  ctx.out.line();
  const session = sessions[options.number - 1];
  if (session === undefined) {
    ctx.err.line(`  No session #${options.number}: the list has ${sessions.length}.`, "red");
    return ExitCode.failure;
  }
  const dir = probePath(session.dir);
  if (dir.kind !== "directory") {
    ctx.err.line(
      dir.kind === "unreadable"
        ? `  The session's directory cannot be reached (${dir.error}): ${session.dir}`
        : `  The session's directory no longer exists: ${session.dir}`,
      "red",
    );
    return ExitCode.failure;
  }
  // Spec 11.9 step 1a: recently resumed sessions surface at the top, even if the launch fails.
  await changeRegistry(
    ctx,
    (r) => mainSessions(r).some((s) => s.guid === session.guid) ? moveToTop(r, session.guid) : r,
  );
  return await resumeSession(ctx, { settings: setup.settings, session, registered: true });
}
