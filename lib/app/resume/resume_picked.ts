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
import { orphanScan } from "../orphans/orphan_scan.ts";
import { resumeSession } from "./resume_session.ts";
import { probePath } from "../../core/fs_checks.ts";
import type { Session } from "../../core/registry.ts";

/** Resume `session` in its registered directory; returns the exit code. */
export async function resumePicked(
  ctx: AppContext,
  settings: LaunchSettings,
  session: Session,
): Promise<number> {
  // Spec 11.9 step 3, for a folder that is there (resumeSession reports one that is not):
  // a transcript picked from the orphan scan is resumed instead, and registered after.
  if (probePath(session.dir).kind === "directory") {
    const choice = orphanScan(ctx, { dir: session.dir, registeredGuid: session.guid });
    if (choice !== null && choice.guid !== session.guid) {
      const orphan = { ...session, guid: choice.guid, tokens: "" };
      return await resumeSession(ctx, { settings, session: orphan, registered: false });
    }
  }
  return await resumeSession(ctx, { settings, session, registered: true });
}
