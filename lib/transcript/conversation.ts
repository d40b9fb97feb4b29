/**
 * Whether a transcript holds a conversation: claude (2.1.332) resumes only a
 * transcript with a message in it, and refuses one that holds metadata alone
 * with "No conversation found with session ID: <id>", as if it were not
 * there (tests/real_claude_contract_test.ts).
 *
 * @module
 */

import { scanLines } from "./lines.ts";
import { peekType } from "./scan.ts";

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
