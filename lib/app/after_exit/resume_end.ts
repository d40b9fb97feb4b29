/**
 * What becomes of a session's entry after a resume that exited non-zero
 * (spec 11.9 step 5): only a transcript found nowhere, in the vault
 * neither, lets the user drop it. Decided from the facts, each asked only
 * when the decision gets to it (in this order, as the flow always asked
 * them), with no question and no write: tests/resume_end_test.ts.
 *
 * @module
 */

import type { TranscriptLocation } from "../../core/transcript_location.ts";
import type { RefusedResume, ResumeOutcome } from "./resume_model.ts";

/** The facts the decision asks for, each when it gets to it. */
export interface RefusedResumeFacts {
  outcome: Pick<ResumeOutcome, "ran" | "unfollowedFork">;
  /** The session is a registry row (a pass-through `-r` of an unsaved one is not). */
  registered: boolean;
  /** A claude has it open now. */
  live: () => boolean;
  located: () => TranscriptLocation;
  /** The vault has it; `why` when the vault cannot be looked in. */
  inVault: () => boolean | { why: string };
}

/** What is done with the entry after a resume that did not end cleanly. */
export function refusedResume(facts: RefusedResumeFacts): RefusedResume {
  // Claude went on in a fork: the entry is not the fork's to lose, whatever is left of the original.
  if (facts.outcome.unfollowedFork !== undefined) return { kind: "unclean-end" };
  // Liveness before "missing" (issue 17 item 5): a window whose claude has not written its
  // first message has no transcript yet, and its row is not ours to drop.
  if (facts.live()) return { kind: "live" };
  const located = facts.located();
  if (located.status === "found") {
    return facts.outcome.ran ? { kind: "unclean-end" } : { kind: "on-disk", path: located.path };
  }
  if (located.status === "unreadable") {
    return { kind: "unreadable", path: located.path, error: located.error };
  }
  if (!facts.registered) return { kind: "nowhere" };
  // The vault is the first answer to a missing transcript (DESIGN.md 5.16): never a delete then,
  // nor when the vault cannot be looked in.
  const inVault = facts.inVault();
  if (inVault === true) return { kind: "in-vault" };
  if (inVault !== false) return { kind: "vault-unreadable", why: inVault.why };
  return { kind: "offer-delete" };
}
