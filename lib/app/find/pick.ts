/**
 * Resume a session `find` found, through the one resume path (fork
 * detection, the live-session guard, post-exit), as `resume N` does. A
 * session the registry does not know is registered first, at the top, with
 * its title as DESC, through the one registry writer.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { displayNameFor, prepareLaunch } from "../launch_setup.ts";
import { changeRegistry } from "../registry.ts";
import { finishResume } from "../resume_exit.ts";
import { resumeWithForkDetection } from "../resume_session.ts";
import { ExitCode } from "../../core/errors.ts";
import { folderDefaultName } from "../../core/format.ts";
import { isDirectory } from "../../core/fs_checks.ts";
import { leafName } from "../../core/paths.ts";
import { findSession, mainSessions, type Session } from "../../core/registry.ts";
import { addAtTop, moveToTop } from "../../core/registry_ops.ts";
import { readRegistry } from "../../store/registry_store.ts";
import type { FindResult } from "./results.ts";

/** Resume `result`, registering it first when needed; returns the exit code. */
export async function resumeFound(ctx: AppContext, result: FindResult): Promise<number> {
  const known = findSession(readRegistry(ctx.paths), result.sessionId);
  const dir = known?.dir ?? result.dir;
  if (dir === null) {
    ctx.err.line("  This session's transcript records no folder, so it cannot be resumed.", "red");
    return ExitCode.failure;
  }
  if (/[|\r\n]/.test(dir)) {
    ctx.err.line(
      `  This session's folder contains '|' or a line break, which the list cannot hold: ${dir}`,
      "red",
    );
    return ExitCode.failure;
  }
  if (!isDirectory(dir)) {
    ctx.err.line(`  The session's directory no longer exists: ${dir}`, "red");
    return ExitCode.failure;
  }
  const setup = await prepareLaunch(ctx);
  if ("reexecExitCode" in setup) return setup.reexecExitCode;
  const session: Session = known ?? {
    guid: result.sessionId,
    dir,
    desc: result.title ?? folderDefaultName(leafName(ctx.paths, dir)),
    tokens: "",
  };
  // Registered first (or moved up, as resume N does), so the row exists whatever claude does.
  await changeRegistry(ctx, (r) => {
    if (findSession(r, session.guid) === undefined) return addAtTop(r, session);
    return mainSessions(r).some((s) => s.guid === session.guid) ? moveToTop(r, session.guid) : r;
  });
  if (known === undefined) ctx.out.line(`  Added to the list as #1: ${session.desc}`, "green");
  const outcome = await resumeWithForkDetection(ctx, setup.settings, {
    dir: session.dir,
    guid: session.guid,
    displayName: displayNameFor(setup.settings, session.desc),
  });
  await finishResume(ctx, session, outcome);
  return outcome.exitCode === 0 ? ExitCode.ok : ExitCode.failure;
}
