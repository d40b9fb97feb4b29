/**
 * Parsers for option values that several commands share, so `--limit`,
 * `--days` and `--budget` accept and refuse the same text with the same
 * message.
 *
 * @module
 */

import { InvalidValueError } from "./command.ts";
import { parseWholeNumber } from "../core/numbers.ts";
import { canonicalSessionId, isSessionId } from "../core/registry.ts";

/** An option value that must be a whole number of at least 1 (`007` is 7). */
export function parsePositiveInt(value: string): number {
  const number = parseWholeNumber(value);
  if (number === null || number === 0) {
    throw new InvalidValueError("expected a positive whole number.");
  }
  return number;
}

/**
 * A repeatable `--exclude <id>`: every id given, in Claude's spelling. An
 * empty value adds nothing (the recover skill passes `$CLAUDE_CODE_SESSION_ID`,
 * empty outside a session); any other text must be a session id, so a typo
 * is not a session silently left in.
 */
export function collectSessionIds(value: string, previous: unknown): string[] {
  const earlier = Array.isArray(previous) ? previous : [];
  const id = canonicalSessionId(value);
  if (id === "") return earlier;
  if (!isSessionId(id)) throw new InvalidValueError("expected a session id (a UUID).");
  return [...earlier, id];
}
