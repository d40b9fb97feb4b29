/**
 * Do-Resume (spec 11.9): resume a session the user picked, by number on the
 * command line (`resume N`) or in a list or search. Every pick goes through
 * here: the orphan scan (11.5), the check that the transcript is there
 * (11.7, with the recovery choices when it is not), then the one resume path
 * ({@linkcode resumeSession}: the folder check, the live-session question,
 * fork detection, post-exit, and the move to #1 once the resume ran).
 *
 * @module
 */

import { type AppContext, launchContext } from "../context.ts";
import { finishFreshLaunch } from "../after_exit/fresh_exit.ts";
import { freshLaunch } from "../launch/fresh_launch.ts";
import type { LaunchSettings } from "../launch/launch_setup.ts";
import { orphanScan } from "../orphans/orphan_scan.ts";
import { resolveResumeOrRecover } from "../primer/recovery_primer.ts";
import { followFolderMoves } from "./follow_folder.ts";
import { pickedSession } from "./picked_session.ts";
import { resumeSession } from "./resume_session.ts";
import { offerVaultRestore } from "../restore/restore.ts";
import { ExitCode } from "../../core/errors.ts";
import { probePath } from "../../core/fs_checks.ts";
import type { Session } from "../../core/registry.ts";

/** Resume `session` in its registered directory; returns the exit code. */
export async function resumePicked(
  ctx: AppContext,
  { settings, session: picked }: { settings: LaunchSettings; session: Session },
): Promise<number> {
  // A pick from a menu ends its dialogue: from here on it is a launch.
  ctx = launchContext(ctx);
  // Before the checks below, which look in the session's folder; resumeSession does it again.
  const session = await followFolderMoves(ctx, picked);
  if (session === null) return ExitCode.failure;
  // A folder that is not there is reported by resumeSession, before anything else happens.
  if (probePath(session.dir).kind !== "directory") {
    return await resumeSession(ctx, { settings, session, registered: true });
  }
  // The vault's copy is the first answer to a missing transcript, before orphans or recovery.
  const offer = await offerVaultRestore(ctx, session);
  if (offer === "failed") return ExitCode.failure;
  // Spec 11.9 step 3: a transcript picked from the orphan scan is resumed instead, and
  // registered after its exit.
  const choice = await orphanScan(ctx, { dir: session.dir, registeredGuid: session.guid });
  if (choice !== null && choice.guid !== session.guid) {
    const picked = pickedSession(ctx, { guid: choice.guid, dir: session.dir });
    return await resumeSession(ctx, { settings, ...picked, launchDir: session.dir });
  }
  return await resumeOrRecover(ctx, { settings, session, vaultOffered: offer === "declined" });
}

/**
 * Spec 11.9 steps 4 and 5: resume the registered `session`, or, when its
 * transcript is lost, what the user chooses instead: a fresh session that
 * takes over the row once it exists (a recovery prompt first, or not), or
 * nothing.
 */
export async function resumeOrRecover(
  ctx: AppContext,
  { settings, session, vaultOffered }: {
    settings: LaunchSettings;
    session: Session;
    /** The vault's restore was already offered and declined: not again. */
    vaultOffered?: boolean;
  },
): Promise<number> {
  if (vaultOffered !== true && await offerVaultRestore(ctx, session) === "failed") {
    return ExitCode.failure;
  }
  const resolution = await resolveResumeOrRecover(ctx, { settings, session });
  if (resolution.action === "cancel") return resolution.failed ? ExitCode.failure : ExitCode.ok;
  if (resolution.action === "normal") {
    return await resumeSession(ctx, { settings, session, registered: true });
  }
  const outcome = await freshLaunch(ctx, settings, {
    dir: session.dir,
    desc: session.desc,
    passArgs: [],
    replaces: session.guid,
  });
  await finishFreshLaunch(ctx, outcome, { settings, dir: session.dir, provisional: false });
  return outcome.exitCode === 0 ? ExitCode.ok : outcome.exitCode;
}
