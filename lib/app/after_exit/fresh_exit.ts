/**
 * What follows a fresh launch: post-exit after a clean exit; after a failed
 * one, the session is still saved (spec 14.4) without a question, since
 * nobody may be there to answer.
 *
 * @module
 */

import { resumeCommandFor } from "./way_back.ts";
import type { AppContext } from "../context.ts";
import type { FreshLaunchOutcome } from "../launch/fresh_launch.ts";
import type { LaunchSettings } from "../launch/launch_setup.ts";
import { postExit, saveExitState } from "./post_exit.ts";
import { findSession } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** Finish the fresh launch in `dir` that ended with `outcome`. */
export async function finishFreshLaunch(
  ctx: AppContext,
  outcome: FreshLaunchOutcome,
  options: { settings: LaunchSettings; dir: string; provisional: boolean },
): Promise<void> {
  const { dir, settings } = options;
  if (outcome.sessionId === null) {
    ctx.out.line("  No session was saved: claude exited before the first message.");
  } else if (outcome.exitCode === 0) {
    await postExit(ctx, settings, {
      guid: outcome.sessionId,
      dir,
      provisional: options.provisional,
    });
  } else {
    const state = await saveExitState(ctx, { guid: outcome.sessionId, dir }, { ask: false });
    const saved = state && findSession(readRegistry(ctx.paths), outcome.sessionId);
    if (saved) {
      const back = resumeCommandFor(ctx, saved.guid);
      ctx.out.line(
        `  claude exited with code ${outcome.exitCode}; saved as '${saved.desc}'` +
          (back === null ? "." : `; to resume it later: ${back}`),
      );
    }
  }
}
