/**
 * What the session a resumed claude ended on is, next to the one it was
 * given. Claude moves to another id in three ways, and only one of them
 * means "the same work, under a new name" (measured on 2.1.332, and on the
 * forks of older versions in reference/real-claude/):
 * - a fork claude made on its own carries the history forward: the row
 *   follows it and the predecessor is set aside (spec 11.6.1);
 * - a fork the user asked for (`--fork-session`) is a branch: the original
 *   and its row stay, the branch gets a row of its own;
 * - a `/clear` starts a new conversation with none of the history: the
 *   original and its row stay, and the new one is left for `adopt`.
 *
 * That a session carries another's history forward is read first from
 * claude's own records where it wrote them (lineage.ts: `/branch`'s
 * `forkedFrom` in the new one, `continued-in` in the old one), which hold
 * even when the old transcript is gone; else from the message uuids a copy
 * keeps (conversation.ts).
 *
 * @module
 */

import { continuesHistory } from "../../transcript/conversation.ts";
import { continuedIn, lineageRecords } from "../../transcript/lineage.ts";

/** The session claude ended on, and what it is to the one it resumed. */
export type NextSession =
  | { kind: "same" }
  | { kind: "fork" | "branch" | "cleared"; guid: string };

/** Tell what `next` (claude's session at exit, another id) is to the session it resumed. */
export function classifyNext(
  next: string | null,
  options: {
    nextPath: string;
    resumedPath: string | null;
    extraArgs: readonly string[];
    /** The resumed session's id, when `resumedPath` may be null (its transcript gone). */
    resumedGuid?: string;
  },
): NextSession {
  if (next === null) return { kind: "same" };
  if (options.extraArgs.some((arg) => arg === "--fork-session")) {
    return { kind: "branch", guid: next };
  }
  const resumed = options.resumedGuid ?? idOfTranscript(options.resumedPath);
  const carried = recordedLink({ ...options, next, resumed }) ||
    (options.resumedPath !== null && continuesHistory(options.nextPath, options.resumedPath));
  return { kind: carried ? "fork" : "cleared", guid: next };
}

/** The session `nextPath`'s lines were copied from by `/branch` (its first `forkedFrom`). */
export function recordedParent(nextPath: string): string | undefined {
  try {
    return lineageRecords(nextPath).find((record) => record.kind === "forked-from")?.sessionId;
  } catch {
    return undefined;
  }
}

/** Whether claude recorded that `next` goes on from `resumed`. */
function recordedLink(
  options: { next: string; nextPath: string; resumed?: string; resumedPath: string | null },
): boolean {
  if (options.resumed !== undefined && recordedParent(options.nextPath) === options.resumed) {
    return true;
  }
  if (options.resumedPath === null) return false;
  try {
    return continuedIn(lineageRecords(options.resumedPath)) === options.next;
  } catch {
    return false;
  }
}

function idOfTranscript(path: string | null): string | undefined {
  return path === null ? undefined : /([0-9a-f-]{36})\.jsonl$/.exec(path)?.[1];
}
