/**
 * What a session is, for showing and adopting it, without reading it whole:
 * its opening (first real prompt, working folder, whether `claude -p` wrote
 * it) from the head, its titles and last activity from the tail.
 *
 * @module
 */

import { scanLines } from "./lines.ts";
import { docsOfLine, type SessionFacts } from "./search_text.ts";
import { readTail } from "./tail.ts";

/** How far into a transcript its first real prompt is looked for. */
const OPENING_BYTES = 4 * 1024 * 1024;

/** The facts of the transcript at `path`: opening from the head, titles from the tail. */
export function readSessionFacts(path: string): SessionFacts {
  const facts: SessionFacts = {};
  let read = 0;
  scanLines(path, (line) => {
    read += line.length + 1;
    if (!line.oversized) docsOfLine(line.bytes, facts);
    return facts.firstPrompt === undefined && read < OPENING_BYTES;
  });
  const tail = readTail(path);
  if (tail.customTitle !== undefined) facts.customTitle = tail.customTitle;
  if (tail.aiTitle !== undefined) facts.aiTitle = tail.aiTitle;
  if (tail.lastTimestamp !== undefined && (facts.lastActivity ?? "") < tail.lastTimestamp) {
    facts.lastActivity = tail.lastTimestamp;
  }
  facts.cwd ??= tail.cwd;
  // Begun with `claude -p` and gone on with by hand since: a session like any other.
  if (facts.printMode && tail.entrypoint === "cli") facts.printMode = false;
  // The head read stops early; `/cd` records are re-appended at the end.
  if (tail.relocatedCwd !== undefined) facts.relocatedCwd = tail.relocatedCwd;
  return facts;
}

/**
 * Whether a transcript is a one-shot `claude -p` call (its first prompt came
 * from print mode and nobody went on with it by hand): not a session to
 * register or to warn about unless the user names it (issue 31 defect 14).
 * The ONE rule for the orphan scan, registration and adopt. claude 2.1.332
 * marks print mode's lines `entrypoint: "sdk-cli"` and an interactive
 * session's `cli` (tests/real_claude_contract_test.ts).
 */
export function isPrintCall(facts: SessionFacts): boolean {
  return facts.printMode === true;
}

/** {@linkcode isPrintCall} of the transcript at `path`; false when it cannot be read. */
export function isPrintCallTranscript(path: string): boolean {
  try {
    return isPrintCall(readSessionFacts(path));
  } catch {
    return false;
  }
}

/**
 * Whether a transcript is no conversation worth offering or registering: it
 * has no real prompt (only `/clear` and the like, what `/clear` leaves) or it
 * is a one-shot `claude -p` call ({@linkcode isPrintCall}). The ONE rule for
 * adopt, the orphan scan and a launch's new transcripts (issue 31 defects 6
 * and 14); a session the user names is one all the same.
 */
export function isNoSession(facts: SessionFacts): boolean {
  return facts.firstPrompt === undefined || isPrintCall(facts);
}

/**
 * {@linkcode isNoSession} of the transcript at `path`; false when it cannot
 * be read (what it is cannot be told, so it is not hidden).
 */
export function isNoSessionTranscript(path: string): boolean {
  try {
    return isNoSession(readSessionFacts(path));
  } catch {
    return false;
  }
}
