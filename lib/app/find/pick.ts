/**
 * Resume a session `find` found, through the one resume path (fork
 * detection, the live-session guard, post-exit), as `resume N` does. A
 * session the registry does not know is registered first, at the top, with
 * its title as DESC, through the one registry writer.
 *
 * @module
 */

import { type AppContext, launchContext } from "../context.ts";
import { prepareLaunch } from "../launch/launch_setup.ts";
import { changeRegistry } from "../registry.ts";
import { resumeSession } from "../resume/resume_session.ts";
import { ExitCode } from "../../core/errors.ts";
import { folderDefaultName } from "../../core/format.ts";
import { isDirectory, isFile } from "../../core/fs_checks.ts";
import { leafName } from "../../core/paths.ts";
import {
  findSession,
  malformedLineNaming,
  namedSessionIds,
  type Session,
} from "../../core/registry.ts";
import { addAtTop } from "../../core/registry_ops.ts";
import { readRegistry } from "../../store/registry_store.ts";
import type { FindResult } from "./results.ts";

/** Resume `result`, registering it first when needed; returns the exit code. */
export async function resumeFound(ctx: AppContext, result: FindResult): Promise<number> {
  // A pick from find or the picker ends its dialogue: from here on it is a launch.
  ctx = launchContext(ctx);
  const registry = readRegistry(ctx.paths);
  const known = findSession(registry, result.sessionId);
  const unparsed = known === undefined
    ? malformedLineNaming(registry, result.sessionId)
    : undefined;
  if (unparsed !== undefined) {
    // Registered by a line that does not parse: a second row would name the session twice.
    ctx.err.line(
      `  Line ${unparsed.lineNumber} of the session list names this session but does not parse ` +
        `(${unparsed.reason}); fix that line (claudecm doctor shows it), then resume it.`,
      "red",
    );
    return ExitCode.failure;
  }
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
  // A registered one whose folder is gone is asked about by the one resume path.
  if (known === undefined && !isDirectory(dir)) {
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
  if (known === undefined) {
    // Registered first, so the row exists whatever claude does; re-checked under the lock, where
    // another window's quarantine or move may have taken the transcript away since the search.
    let added = false;
    let gone = false;
    await changeRegistry(ctx, (r) => {
      gone = !isFile(result.transcript);
      added = !gone && !namedSessionIds(r).has(session.guid);
      return added ? addAtTop(r, session) : r;
    });
    if (gone) {
      ctx.err.line(
        `  The session's own transcript is not at ${result.transcript} (moved away since the ` +
          "search, or only its subagents' files are left); nothing was added.",
        "red",
      );
      return ExitCode.failure;
    }
    if (added) ctx.out.line(`  Added to the list as #1: ${session.desc}`, "green");
  }
  return await resumeSession(ctx, { settings: setup.settings, session, registered: true });
}
