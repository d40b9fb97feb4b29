/**
 * The prompt that primes a refreshed session (spec 11.14 step 5), word for
 * word as the old scripts wrote it: the reading list, the extraction items
 * when a skeleton or filtered transcript exists, the IMPORTANT rules, and the
 * notes and skeleton markers the user may edit between.
 *
 * @module
 */

/** What the extraction produced; both absent when it was skipped or failed. */
export interface RefreshExtraction {
  skeleton?: string;
  transcriptPath?: string;
}

const HEAD = `Read your memories. This is a fresh session replacing a long previous conversation
on this project. Everything you need to know is in:

1) Your memory files (MEMORY.md and all linked files)
2) Any documentation in the project directory
3) The codebase itself (git log for history)
4) project_current_state.md in your memory if it exists
`;

const EXTRACTION_ITEM = `5) The structured extraction below, produced by mechanical analysis of the
   conversation log
`;

const IMPORTANT = `
IMPORTANT:
- The files listed below reflect the state at the end of the previous session.
  Re-read any file before modifying it, as it may have changed since then.
- The errors listed may or may not still be relevant. Verify before acting on them.
- Do not start any development until the user tells you to.
- Tell the user what you understand about the current state of the project,
  what works, what is pending, and what your behavioral rules are.
`;

/** The marker the user writes their notes under. */
export const NOTES_MARKER =
  "--- ADD YOUR NOTES HERE (context, decisions, corrections, anything the skeleton missed) ---";
/** The line before the skeleton. */
const SKELETON_START = "--- SKELETON START (review and edit as needed) ---";
/** The line after the skeleton. */
export const SKELETON_END = "--- SKELETON END ---";

/** Build the refresh prompt for `extraction`. */
export function buildRefreshPrompt(extraction: RefreshExtraction): string {
  const { skeleton, transcriptPath } = extraction;
  let prompt = HEAD;
  if (skeleton !== undefined || transcriptPath !== undefined) {
    prompt += EXTRACTION_ITEM;
    if (transcriptPath !== undefined) {
      prompt +=
        "6) A filtered transcript of the previous session (conversation text and tool call\n" +
        "   summaries, no tool output) at:\n" +
        `   ${transcriptPath}\n` +
        "   Read this file and identify any key decisions, user corrections, or reasoning\n" +
        "   that the skeleton below does not capture.\n";
    }
  }
  prompt += IMPORTANT;
  if (skeleton !== undefined) {
    prompt += `\n\n${NOTES_MARKER}\n\n\n\n${SKELETON_START}\n\n${skeleton.trimEnd()}\n\n` +
      `${SKELETON_END}\n`;
  }
  return prompt;
}
