/**
 * What is said after a resume: a `/clear`'s new conversation, and, after a
 * resume that did not end cleanly, what became of the entry and where the
 * work is (resume_end.ts decides which).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { Session } from "../../core/registry.ts";
import { holdsConversation } from "../../transcript/conversation.ts";
import type { RefusedResume, ResumeOutcome } from "./resume_model.ts";

/** Claude went on in a new conversation (a /clear), which the list does not have. */
export function sayNewConversation(
  ctx: AppContext,
  { session, conversation }: { session: Session; conversation: string },
): void {
  ctx.out.line(
    `  Claude went on in a new conversation, ${conversation} (a /clear); ` +
      `'${session.desc}' stays as it was. claudecm adopt adds the new one to the list.`,
    "cyan",
  );
}

/**
 * What became of the entry (`offer-delete` says nothing: the question does).
 * `back`: the command that resumes it, for a resume that ran and ended unclean.
 */
export function sayRefused(
  ctx: AppContext,
  { session, outcome, registered, verdict, back }: {
    session: Session;
    outcome: ResumeOutcome;
    registered: boolean;
    verdict: RefusedResume;
    back: () => string | null;
  },
): void {
  const refused = `  Claude did not resume '${session.desc}' (exit code ${outcome.exitCode}).`;
  switch (verdict.kind) {
    case "unclean-end":
      return reportUncleanEnd(ctx, { session, outcome, back });
    case "live":
      ctx.out.line(`${refused} It is open in another claude window; the entry is kept.`, "yellow");
      return;
    case "on-disk":
      ctx.out.line(`${refused} ${whyRefused(session.guid, verdict.path)}`, "yellow");
      if (registered) {
        ctx.out.line(
          `  The entry has NOT been deleted; its transcript is on disk: ${verdict.path}`,
          "yellow",
        );
      }
      return;
    case "unreadable":
      ctx.out.line(refused, "yellow");
      ctx.out.line(
        `  Could not look for its transcript (${verdict.error}: ${verdict.path}); ` +
          (registered ? "the entry has NOT been deleted." : "fix the access and retry."),
        "yellow",
      );
      return;
    case "nowhere":
      ctx.out.line(
        `${refused} ${noConversation(session.guid)}: no transcript for it is on disk.`,
        "yellow",
      );
      return;
    case "vault-unreadable":
      ctx.out.line(refused, "yellow");
      ctx.out.line(`  Could not look in the vault (${verdict.why}); the entry is kept.`, "yellow");
      return;
    case "in-vault":
      ctx.out.line(
        `  Its transcript is missing, and the vault has it: claudecm restore ${session.guid} ` +
          "puts it back. The entry is kept.",
        "yellow",
      );
      return;
    case "offer-delete":
      return;
  }
}

/** A resume that ran and then exited non-zero: the entry stays, and the user learns where the work is. */
function reportUncleanEnd(
  ctx: AppContext,
  { session, outcome, back }: {
    session: Session;
    outcome: ResumeOutcome;
    back: () => string | null;
  },
): void {
  const fork = outcome.unfollowedFork;
  if (fork === undefined) {
    const way = back();
    ctx.out.line(
      `  Claude ended with exit code ${outcome.exitCode} after working on '${session.desc}'. ` +
        (way === null ? "The entry is kept." : `The entry is kept: ${way}`),
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
