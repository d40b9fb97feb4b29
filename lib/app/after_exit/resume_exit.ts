/**
 * What follows a resume (spec 11.9 step 5): after a clean exit, the
 * post-exit flow on the session claude ended on; after a refused resume,
 * a note when the transcript is on disk anywhere (the entry is kept), or,
 * only when it is found nowhere, the offer to drop the entry. A transcript
 * that could not be looked at is not missing (DESIGN.md 5.11).
 *
 * @module
 */

import { recordLineage } from "../session/lineage_record.ts";
import type { AppContext } from "../context.ts";
import { refusedBeforeAsking } from "../save_check.ts";
import { postExit } from "./post_exit.ts";
import { resumeCommandFor } from "./way_back.ts";
import type { LaunchSettings } from "../launch/launch_setup.ts";
import { changeRegistry } from "../registry.ts";
import type { ResumeOutcome } from "./resume_model.ts";
import { refusedResume } from "./resume_end.ts";
import { sayNewConversation, sayRefused } from "./resume_exit_view.ts";
import { mainSessions, type Session } from "../../core/registry.ts";
import { moveToTop, removeSession } from "../../core/registry_ops.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import { environmentUserError, errorMessage } from "../../core/errors.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { vaultEntryFor } from "../../core/session_copies.ts";

/** A finished resume: the session, whether it is a registry row, and how claude ended. */
export interface FinishedResume {
  settings: LaunchSettings;
  session: Session;
  registered: boolean;
  outcome: ResumeOutcome;
  /** The name a `--fork-session` branch's row gets (`claudecm fork`); else post-exit asks. */
  branchName?: string;
}

/** Finish a resume of `session` that ended with `outcome`. */
export async function finishResume(ctx: AppContext, finished: FinishedResume): Promise<void> {
  const { session, outcome, registered } = finished;
  if (outcome.newConversation !== undefined) {
    sayNewConversation(ctx, { session, conversation: outcome.newConversation });
  }
  if (outcome.branch === true && outcome.branchRecorded !== true) {
    // --fork-session: claude writes no record of where the branch came from (lineage.ts).
    recordLineage(ctx, { kind: "fork-session", from: session.guid, to: outcome.effectiveGuid });
  }
  if (outcome.exitCode === 0) {
    await postExit(ctx, finished.settings, {
      guid: outcome.effectiveGuid,
      dir: session.dir,
      registerIfMissing: !registered || outcome.branch === true,
      name: outcome.branch === true ? finished.branchName : undefined,
    });
    return;
  }
  // Only a resume that ran surfaces at #1 (a clean exit does it in post-exit).
  if (outcome.ran && registered) {
    await changeRegistry(
      ctx,
      (r) => mainSessions(r).some((s) => s.guid === session.guid) ? moveToTop(r, session.guid) : r,
    );
  }
  ctx.out.line();
  const verdict = refusedResume({
    outcome,
    registered,
    live: () => isSessionLive(ctx.paths, session.guid),
    located: () => locateTranscript(ctx.paths, session),
    inVault: () => {
      try {
        return vaultEntryFor(ctx.paths, session) !== null;
      } catch (error) {
        return { why: environmentUserError(error)?.message ?? errorMessage(error) };
      }
    },
  });
  sayRefused(ctx, {
    session,
    outcome,
    registered,
    verdict,
    back: () => resumeCommandFor(ctx, session.guid),
  });
  if (verdict.kind === "offer-delete") await offerDelete(ctx, session);
}

/** The transcript is found nowhere, the vault has none: the user may drop the entry. */
async function offerDelete(ctx: AppContext, session: Session): Promise<void> {
  if (refusedBeforeAsking(ctx, "Deleting its entry")) return;
  // A delete takes a plain yes: Enter, y or yes. No answer at all (input closed), a stray
  // key (an arrow on a pipe) or anything else keeps the entry.
  const answer = ctx.prompter.ask("  Session JSONL is missing. Delete this entry? [Y/n]: ");
  if (answer === null || !/^(y|yes)?$/i.test(answer.trim())) {
    ctx.out.line("  The entry is kept.");
    return;
  }
  await changeRegistry(ctx, (r) => removeSession(r, session.guid, { ifPresent: true }));
  ctx.out.line(`  Deleted entry: ${session.desc}`, "green");
}
