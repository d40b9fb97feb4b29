/**
 * Do-Resume (spec 11.9): resume a session the user picked, by number on the
 * command line (`resume N`) or in a list or search. Every pick goes through
 * here, and from here down the one resume path ({@linkcode resumeSession}:
 * the folder check, the live-session question, the move to #1).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { LaunchSettings } from "../launch/launch_setup.ts";
import { resumeSession } from "./resume_session.ts";
import type { Session } from "../../core/registry.ts";

/** Resume `session` in its registered directory; returns the exit code. */
export function resumePicked(
  ctx: AppContext,
  settings: LaunchSettings,
  session: Session,
): Promise<number> {
  return resumeSession(ctx, { settings, session, registered: true });
}
