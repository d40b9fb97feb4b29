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
 * @module
 */

import { continuesHistory } from "../../transcript/conversation.ts";

/** The session claude ended on, and what it is to the one it resumed. */
export type NextSession =
  | { kind: "same" }
  | { kind: "fork" | "branch" | "cleared"; guid: string };

/** Tell what `next` (claude's session at exit, another id) is to the session it resumed. */
export function classifyNext(
  next: string | null,
  options: { nextPath: string; resumedPath: string | null; extraArgs: readonly string[] },
): NextSession {
  if (next === null) return { kind: "same" };
  if (options.extraArgs.some((arg) => arg === "--fork-session")) {
    return { kind: "branch", guid: next };
  }
  const carried = options.resumedPath !== null &&
    continuesHistory(options.nextPath, options.resumedPath);
  return { kind: carried ? "fork" : "cleared", guid: next };
}
