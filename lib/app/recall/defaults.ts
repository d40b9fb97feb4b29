/**
 * What `recall --help` shows of the flow: the exit code of each refusal.
 * Kept apart from the flow, with no imports, so the command tree is built
 * without loading it.
 *
 * @module
 */

/** A refusal's JSON `status`. */
export type FailureStatus =
  | "session-not-found"
  | "transcript-parse-failure"
  | "no-recoverable-state";

/** Exit code of each refusal (3 matches `recover`'s session-not-found). */
export const RECALL_EXIT: Readonly<Record<FailureStatus, number>> = {
  "session-not-found": 3, // ExitCode.notFound, as recover, rescue and skeleton
  "transcript-parse-failure": 4,
  "no-recoverable-state": 5,
};
