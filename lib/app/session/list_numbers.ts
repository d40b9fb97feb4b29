/**
 * A session's number in the list, the one `claudecm resume N` takes: what
 * every view that shows sessions shows beside them (issue 31), so a number
 * read in one view is never a position in that view alone.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { mainSessions, type Registry } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** Each main-list session's number (1, 2, ...), by session id. */
export function listNumbersOf(registry: Registry): Map<string, number> {
  const numbers = new Map<string, number>();
  mainSessions(registry).forEach((session, index) => {
    if (!numbers.has(session.guid)) numbers.set(session.guid, index + 1);
  });
  return numbers;
}

/**
 * The list numbers for a view that reads the registry only to show them
 * (recover, rescue): a registry that cannot be read shows none rather than
 * stopping a tool that works without it.
 */
export function readListNumbers(ctx: AppContext): Map<string, number> {
  try {
    return listNumbersOf(readRegistry(ctx.paths));
  } catch {
    return new Map();
  }
}

/** `#3`, or `not in list`: how a view names a session's place in the list. */
export function listPlace(numbers: Map<string, number>, sessionId: string): string {
  const number = numbers.get(sessionId);
  return number === undefined ? "not in list" : `#${number}`;
}
