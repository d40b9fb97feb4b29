/**
 * `claudecm fork N [--name NAME] [--json]` (issue 33.2): resume session N
 * with claude's `--fork-session`, so the work goes on in a branch while the
 * original stays as it was; the branch gets a row of its own, named NAME
 * or "<name> (fork)". The resume is the ONE resume path (resumeSession),
 * with its live-session question and its checks.
 *
 * @module
 */

import { type AppContext, jsonRunContext } from "../context.ts";
import { prepareLaunch } from "../launch/launch_setup.ts";
import { printLaunchJson } from "../launch/launch_json.ts";
import { resumeSessionReporting } from "./resume_session.ts";
import { resolveSession } from "../session/resolve_session.ts";
import { validateSessionName } from "../../core/registry.ts";

/** Fork the session `ref` names; returns the exit code. */
export async function runFork(
  given: AppContext,
  options: { ref: string; name?: string; json?: boolean },
): Promise<number> {
  // With --json, stdout is the document's alone and nothing is asked.
  const ctx = options.json ? jsonRunContext(given) : given;
  const setup = await prepareLaunch(ctx);
  if ("reexecExitCode" in setup) return setup.reexecExitCode;
  const { session } = resolveSession(ctx, options.ref, { verb: "fork" });
  const branchName = validateSessionName(options.name ?? `${session.desc} (fork)`);
  const { exitCode, outcome } = await resumeSessionReporting(ctx, {
    settings: setup.settings,
    session,
    registered: true,
    extraArgs: ["--fork-session"],
    branchName,
  });
  // Not launched (refused, declined): the failure's one line, and run.ts's JSON object of it.
  if (options.json && outcome !== null) {
    printLaunchJson(given, {
      sessionId: outcome.branch === true ? outcome.effectiveGuid : null,
      status: "forked",
      exitCode,
      details: { forkOf: session.guid },
    });
  }
  return exitCode;
}
