/**
 * How a resume ended, as the resume path hands it to what follows it
 * (resume_exit.ts), and what is done with the entry after a resume that
 * did not end cleanly (resume_end.ts decides, resume_exit_view.ts says).
 *
 * @module
 */

/** How the resume ended. */
export interface ResumeOutcome {
  exitCode: number;
  /** The session to carry on with: the fork when claude forked, else the original. */
  effectiveGuid: string;
  /**
   * claude worked on the session: it exited cleanly, or its transcript
   * changed (a crash after work). A refused resume (an unknown id, a broken
   * transcript) changes nothing.
   */
  ran: boolean;
  /**
   * After an exit that was not clean: the fork claude wrote, which the row
   * does not follow (spec 11.6.1 step 4), so the user can be told where the
   * work went.
   */
  unfollowedFork?: string;
  /** `effectiveGuid` is a branch the user asked for (`--fork-session`, `/branch`): it needs a row of its own. */
  branch?: boolean;
  /** The branch is `/branch`'s, which claude records itself (lineage.ts). */
  branchRecorded?: boolean;
  /** A `/clear` went on in this new conversation, which no row names (session/next_session.ts). */
  newConversation?: string;
}

/**
 * The entry after a resume that exited non-zero: its work is somewhere
 * (`unclean-end`), it is open elsewhere (`live`), claude refused a
 * transcript on disk (`on-disk`), it could not be looked for
 * (`unreadable`), an unsaved session has none (`nowhere`), the vault could
 * not be looked in (`vault-unreadable`) or has it (`in-vault`), or it is
 * missing everywhere and the user may drop the entry (`offer-delete`).
 */
export type RefusedResume =
  | { kind: "unclean-end" }
  | { kind: "live" }
  | { kind: "on-disk"; path: string }
  | { kind: "unreadable"; path: string; error: string }
  | { kind: "nowhere" }
  | { kind: "vault-unreadable"; why: string }
  | { kind: "in-vault" }
  | { kind: "offer-delete" };
