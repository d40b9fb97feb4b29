/**
 * What a refresh makes of claude's `-p` answer (spec 11.14): the new
 * session it started, or why there is none. Decided from the answer and
 * what was on disk, with no question and no write, so every way it can go
 * is tested without claude (tests/refresh_answer_test.ts).
 *
 * @module
 */

import { isSessionId } from "../../core/registry.ts";
import { printFailure, type PrintResult } from "../../platform/claude.ts";

/** The new session, or why the refresh created none. */
export type FreshVerdict = { fresh: string } | { why: string };

/** What the refresh knew of its run besides claude's answer. */
export interface FreshFacts {
  /** The session being replaced. */
  guid: string;
  /** The id passed as `--session-id`; null when this claude takes none. */
  chosen: string | null;
  /** The sessions in the folder's project folder before the run. */
  before: ReadonlySet<string> | ReadonlyMap<string, unknown>;
  /** A transcript of the session the answer names is where claude reads the folder's sessions. */
  transcriptWritten: boolean;
  timeoutMs: number;
  /** The folder's project folder, for the reason when no transcript was written. */
  projectDir: string;
}

/**
 * The session claude's answer names, when it is this run's: not the old
 * one, not another than the one chosen, not one there before, and written.
 */
export function judgeFreshAnswer(answer: PrintResult, facts: FreshFacts): FreshVerdict {
  const fresh = answer.sessionId;
  const named = fresh !== null && isSessionId(fresh);
  // Not this run's session: the old one, another than the one chosen, or one there before.
  const foreign = fresh !== null &&
    (fresh === facts.guid || (facts.chosen !== null && fresh !== facts.chosen) ||
      facts.before.has(fresh));
  // Its transcript where claude reads the folder's sessions: an answer alone is no session.
  if (!answer.run.timedOut && !answer.isError && named && !foreign && facts.transcriptWritten) {
    return { fresh };
  }
  const why = answer.run.timedOut
    ? `claude did not answer within ${Math.round(facts.timeoutMs / 60_000)} minutes`
    : foreign
    ? `claude named session ${fresh}, not the new one it was asked to start`
    : answer.isError
    ? printFailure(answer)
    : named
    ? `claude wrote no transcript for session ${fresh} in ${facts.projectDir}`
    // A success that names no session: its text ("Done.") is no reason.
    : "claude named no session it started";
  return { why };
}
