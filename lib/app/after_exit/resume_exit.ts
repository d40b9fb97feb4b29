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
import type { ResumeOutcome } from "../resume/resume_session.ts";
import { mainSessions, type Session } from "../../core/registry.ts";
import { moveToTop, removeSession } from "../../core/registry_ops.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import { environmentUserError, errorMessage } from "../../core/errors.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { holdsConversation } from "../../transcript/conversation.ts";
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
  const { session, outcome } = finished;
  if (outcome.newConversation !== undefined) {
    ctx.out.line(
      `  Claude went on in a new conversation, ${outcome.newConversation} (a /clear); ` +
        `'${session.desc}' stays as it was. claudecm adopt adds the new one to the list.`,
      "cyan",
    );
  }
  if (outcome.branch === true && outcome.branchRecorded !== true) {
    // --fork-session: claude writes no record of where the branch came from (lineage.ts).
    recordLineage(ctx, { kind: "fork-session", from: session.guid, to: outcome.effectiveGuid });
  }
  if (outcome.exitCode === 0) {
    await postExit(ctx, finished.settings, {
      guid: outcome.effectiveGuid,
      dir: session.dir,
      registerIfMissing: !finished.registered || outcome.branch === true,
      name: outcome.branch === true ? finished.branchName : undefined,
    });
    return;
  }
  // Only a resume that ran surfaces at #1 (a clean exit does it in post-exit).
  if (outcome.ran && finished.registered) {
    await changeRegistry(
      ctx,
      (r) => mainSessions(r).some((s) => s.guid === session.guid) ? moveToTop(r, session.guid) : r,
    );
  }
  ctx.out.line();
  // Claude went on in a fork: the entry is not the fork's to lose, whatever is left of the original.
  if (outcome.unfollowedFork !== undefined) {
    reportUncleanEnd(ctx, session, outcome);
    return;
  }
  const refused = `  Claude did not resume '${session.desc}' (exit code ${outcome.exitCode}).`;
  // Liveness before "missing" (issue 17 item 5): a window whose claude has not written its
  // first message has no transcript yet, and its row is not ours to drop.
  if (isSessionLive(ctx.paths, session.guid)) {
    ctx.out.line(`${refused} It is open in another claude window; the entry is kept.`, "yellow");
    return;
  }
  const located = locateTranscript(ctx.paths, session);
  if (located.status === "found" && outcome.ran) {
    reportUncleanEnd(ctx, session, outcome);
    return;
  }
  if (located.status === "found") {
    ctx.out.line(`${refused} ${whyRefused(session.guid, located.path)}`, "yellow");
    if (finished.registered) {
      ctx.out.line(
        `  The entry has NOT been deleted; its transcript is on disk: ${located.path}`,
        "yellow",
      );
    }
    return;
  }
  if (located.status === "unreadable") {
    ctx.out.line(refused, "yellow");
    ctx.out.line(
      `  Could not look for its transcript (${located.error}: ${located.path}); ` +
        (finished.registered ? "the entry has NOT been deleted." : "fix the access and retry."),
      "yellow",
    );
    return;
  }
  if (!finished.registered) {
    ctx.out.line(
      `${refused} ${noConversation(session.guid)}: no transcript for it is on disk.`,
      "yellow",
    );
    return;
  }
  // The vault is the first answer to a missing transcript (DESIGN.md 5.16): never a delete then,
  // nor when the vault cannot be looked in.
  let inVault: boolean;
  try {
    inVault = vaultEntryFor(ctx.paths, session) !== null;
  } catch (error) {
    ctx.out.line(refused, "yellow");
    const why = environmentUserError(error)?.message ?? errorMessage(error);
    ctx.out.line(`  Could not look in the vault (${why}); the entry is kept.`, "yellow");
    return;
  }
  if (inVault) {
    ctx.out.line(
      `  Its transcript is missing, and the vault has it: claudecm restore ${session.guid} ` +
        "puts it back. The entry is kept.",
      "yellow",
    );
    return;
  }
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

/** A resume that ran and then exited non-zero: the entry stays, and the user learns where the work is. */
function reportUncleanEnd(ctx: AppContext, session: Session, outcome: ResumeOutcome): void {
  const fork = outcome.unfollowedFork;
  if (fork === undefined) {
    const back = resumeCommandFor(ctx, session.guid);
    ctx.out.line(
      `  Claude ended with exit code ${outcome.exitCode} after working on '${session.desc}'. ` +
        (back === null ? "The entry is kept." : `The entry is kept: ${back}`),
      "yellow",
    );
    return;
  }
  ctx.out.line(
    `  Claude ended with exit code ${outcome.exitCode} after continuing '${session.desc}' as ` +
      `${fork}. After an exit that is not clean the entry stays on the session it named; ` +
      "claudecm adopt adds the new one.",
    "yellow",
  );
}

/** claude's own words for a session it cannot resume (2.1.332, tests/real_claude_contract_test.ts). */
function noConversation(guid: string): string {
  return `Claude said "No conversation found with session ID: ${guid}"`;
}

/**
 * Why claude refused a transcript that is on disk: claude's own reason when
 * the transcript tells it (no message in it), else a pointer to claude's
 * message, with the usual causes.
 */
function whyRefused(guid: string, transcript: string): string {
  if (holdsConversation(transcript) === false) {
    return `${noConversation(guid)}: its transcript holds no message yet.`;
  }
  return "Claude's message above says why; common causes are an interrupted tool call or " +
    "a stale deferred-tool marker.";
}
