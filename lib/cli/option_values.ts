/**
 * Parsers for option values that several commands share, so `--limit`,
 * `--days` and `--budget` accept and refuse the same text with the same
 * message.
 *
 * @module
 */

import { InvalidValueError, orList } from "./command.ts";
import { parseWholeNumber } from "../core/numbers.ts";
import {
  canonicalSessionId,
  InvalidSessionNameError,
  isSessionId,
  validateSessionName,
} from "../core/registry.ts";
import { cleanName } from "../core/safe_text.ts";
import { parseSince, type Since } from "../core/since.ts";

/** An option value that must be a whole number of at least 1 (`007` is 7). */
export function parsePositiveInt(value: string): number {
  const number = parseWholeNumber(value);
  if (number === null || number === 0) {
    throw new InvalidValueError("a positive whole number (1, 2, ...)");
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
  if (!isSessionId(id)) throw new InvalidValueError("a session id (a UUID)");
  return [...earlier, id];
}

/**
 * A repeatable option of a fixed few that also takes them joined by commas
 * (`--role user,tool --role assistant`): every value given, each one checked.
 */
export function collectChoices<T extends string>(
  choices: readonly T[],
): (value: string, previous: unknown) => T[] {
  return (value, previous) => {
    const earlier = Array.isArray(previous) ? previous : [];
    const parts = value.split(",").map((part) => part.trim());
    if (!parts.every((part) => (choices as readonly string[]).includes(part))) {
      throw new InvalidValueError(orList(choices));
    }
    return [...earlier, ...parts as T[]];
  };
}

/** `find --since`: a span back from now or a date (lib/core/since.ts). */
export function parseSinceOption(value: string): Since {
  const since = parseSince(value);
  if (since === null) {
    throw new InvalidValueError(
      "7d, 24h, 30m, 2w, a date (2026-11-30) or a date and time (2026-11-30T14:05)",
    );
  }
  return since;
}

/** What a `<session>` argument takes, as every command's `--help` says it. */
export const SESSION_REF_HELP =
  "its number in `claudecm list`, its session id (or its first 8+ characters), or its exact name";

/**
 * A `<session>` argument: the text the session resolver
 * (lib/app/session/resolve_session.ts) reads; only `0`, which no list
 * numbers, is refused here.
 */
export function parseSessionRef(value: string): string {
  const number = /^\s*\d+\s*$/.test(value) ? parseWholeNumber(value.trim()) : null;
  if (number === 0) {
    throw new InvalidValueError("there is no session #0: sessions are numbered from 1", {
      whole: true,
    });
  }
  return value;
}

/**
 * A session name given on the command line (`rename N NAME`, `--name`):
 * what the registry can hold, as a typed name is (escapes dropped, trimmed,
 * no `|` or line break, not empty).
 */
export function parseSessionName(value: string): string {
  const name = cleanName(value);
  if (name === "") throw new InvalidValueError("a session name cannot be empty", { whole: true });
  try {
    return validateSessionName(name);
  } catch (error) {
    if (!(error instanceof InvalidSessionNameError)) throw error;
    throw new InvalidValueError(error.message, { whole: true });
  }
}
