/**
 * Whether a transcript holds a conversation: claude (2.1.332) resumes only a
 * transcript with a message in it, and refuses one that holds metadata alone
 * with "No conversation found with session ID: <id>", as if it were not
 * there (tests/real_claude_contract_test.ts).
 *
 * @module
 */

import { scanLines } from "./lines.ts";
import { peekString, peekType } from "./scan.ts";

/** True when a line of `path` is a user or assistant message; null when it cannot be read. */
export function holdsConversation(path: string): boolean | null {
  let found = false;
  try {
    scanLines(path, (line) => {
      const type = peekType(line.bytes);
      found = type === "user" || type === "assistant";
      return !found;
    }, { maxLineBytes: 64 * 1024 });
  } catch {
    return null;
  }
  return found;
}

/**
 * Whether `next` carries `previous`'s history forward: claude copies the
 * history into a fork with each message's `uuid` kept (2.1.332's
 * `--fork-session`, and the forks on resume of older versions), so the fork's
 * first message is one of `previous`'s. A `/clear` goes on in a transcript
 * with none of them. False when either cannot be read.
 */
export function continuesHistory(next: string, previous: string): boolean {
  const first = firstMessageUuid(next);
  if (first === undefined) return false;
  let found = false;
  try {
    scanLines(previous, (line) => {
      const type = peekType(line.bytes);
      found = (type === "user" || type === "assistant") &&
        peekString(line.bytes, "uuid") === first;
      return !found;
    });
  } catch {
    return false;
  }
  return found;
}

function firstMessageUuid(path: string): string | undefined {
  let uuid: string | undefined;
  try {
    scanLines(path, (line) => {
      const type = peekType(line.bytes);
      if (type === "user" || type === "assistant") uuid = peekString(line.bytes, "uuid") ?? "";
      return uuid === undefined;
    });
  } catch {
    return undefined;
  }
  return uuid === "" ? undefined : uuid;
}
