/**
 * What the session a resumed claude ended on is, next to the one it was
 * given. Claude moves to another id in three ways, and only one of them
 * means "the same work, under a new name" (measured on 2.1.332, and on the
 * forks of older versions in reference/real-claude/):
 * - a fork claude made on its own carries the history forward: the row
 *   follows it and the predecessor is set aside (spec 11.6.1);
 * - a fork the user asked for (`--fork-session`, or `/branch` inside claude,
 *   which says "Back to the original: /resume <id>") is a branch: the
 *   original and its row stay, the branch gets a row of its own;
 * - a `/clear` starts a new conversation with none of the history: the
 *   original and its row stay, and the new one is left for `adopt`.
 *
 * Claude's own records are read first where it wrote them (lineage.ts):
 * `/branch` stamps its copy with `forkedFrom`, which makes it a branch even
 * when the old transcript is gone; a `continued-in` line in the old one names
 * where the conversation went on. Else the message uuids a copy keeps tell a
 * fork (conversation.ts).
 *
 * @module
 */

import { continuesHistory } from "../../transcript/conversation.ts";
import { continuedIn, lineageRecords } from "../../transcript/lineage.ts";

/** The session claude ended on, and what it is to the one it resumed. */
export type NextSession =
  | { kind: "same" }
  | { kind: "fork" | "cleared"; guid: string }
  | {
    kind: "branch";
    guid: string;
    /** Claude recorded it (`/branch`'s `forkedFrom`): claudecm need not. */
    recorded?: boolean;
  };

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
  if (resumed !== undefined && recordedParent(options.nextPath) === resumed) {
    return { kind: "branch", guid: next, recorded: true };
  }
  const carried = recordedLink({ ...options, next }) ||
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

/** Whether claude recorded, in the resumed transcript, that the conversation went on in `next`. */
function recordedLink(options: { next: string; resumedPath: string | null }): boolean {
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
