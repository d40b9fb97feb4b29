/**
 * `claudecm fork N [--name NAME]` (issue 33.2): resume session N with
 * claude's `--fork-session`, so the work goes on in a branch while the
 * original stays as it was; the branch gets a row of its own, named NAME
 * or "<name> (fork)". The resume is the ONE resume path (resumeSession),
 * with its live-session question and its checks.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { prepareLaunch } from "../launch/launch_setup.ts";
import { resumeSession } from "./resume_session.ts";
import { resolveSession } from "../session/resolve_session.ts";
import { validateSessionName } from "../../core/registry.ts";

/** Fork the session `ref` names; returns the exit code. */
export async function runFork(
  ctx: AppContext,
  options: { ref: string; name?: string },
): Promise<number> {
  const setup = await prepareLaunch(ctx);
  if ("reexecExitCode" in setup) return setup.reexecExitCode;
  const { session } = resolveSession(ctx, options.ref, { verb: "fork" });
  const branchName = validateSessionName(options.name ?? `${session.desc} (fork)`);
  return await resumeSession(ctx, {
    settings: setup.settings,
    session,
    registered: true,
    extraArgs: ["--fork-session"],
    branchName,
  });
}
