/**
 * The last few prompts the user typed in a session, for the picker's
 * preview: read from the end of the transcript (64 KiB, growing to 1 MiB
 * while too few are found), with the search text's rules for what a typed
 * prompt is (no commands, no injected or compacted lines, no subagent's).
 *
 * @module
 */

import { docsOfLine } from "./search_text.ts";
import { readFromEnd, splitLines } from "./tail.ts";

/** The last `count` prompts typed in the transcript at `path`, oldest first; [] when unreadable. */
export function recentPrompts(path: string, count: number): string[] {
  try {
    return readFromEnd(path, { window: 64 * 1024, maxWindow: 1024 * 1024 }, (tail) => {
      const prompts: string[] = [];
      for (const line of splitLines(tail.bytes, tail.partialFirst)) {
        for (const doc of docsOfLine(line, {}, { withoutToolOutput: true })) {
          if (doc.role === "user") prompts.push(doc.text.slice(0, 500));
        }
      }
      return { value: prompts.slice(-count), enough: prompts.length >= count };
    });
  } catch {
    return [];
  }
}
