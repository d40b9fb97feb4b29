import assert from "node:assert/strict";
import { buildRefreshPrompt } from "../lib/app/refresh/refresh_prompt.ts";
import { editorCommand } from "../lib/platform/editor.ts";

const HEAD = `Read your memories. This is a fresh session replacing a long previous conversation
on this project. Everything you need to know is in:

1) Your memory files (MEMORY.md and all linked files)
2) Any documentation in the project directory
3) The codebase itself (git log for history)
4) project_current_state.md in your memory if it exists
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

Deno.test("the refresh prompt without an extraction is the reading list and the rules", () => {
  assert.equal(buildRefreshPrompt({}), HEAD + IMPORTANT);
});

Deno.test("the refresh prompt with a skeleton and a transcript, word for word (spec 11.14 step 5)", () => {
  const prompt = buildRefreshPrompt({
    skeleton: "# Session Refresh: X\n\n## Original Intent\n\ngo\n\n",
    transcriptPath: "/t/abc-transcript.md",
  });
  assert.equal(
    prompt,
    HEAD +
      "5) The structured extraction below, produced by mechanical analysis of the\n" +
      "   conversation log\n" +
      "6) A filtered transcript of the previous session (conversation text and tool call\n" +
      "   summaries, no tool output) at:\n" +
      "   /t/abc-transcript.md\n" +
      "   Read this file and identify any key decisions, user corrections, or reasoning\n" +
      "   that the skeleton below does not capture.\n" +
      IMPORTANT +
      "\n\n--- ADD YOUR NOTES HERE (context, decisions, corrections, anything the skeleton missed) ---\n" +
      "\n\n\n--- SKELETON START (review and edit as needed) ---\n\n" +
      "# Session Refresh: X\n\n## Original Intent\n\ngo\n\n--- SKELETON END ---\n",
  );
});

Deno.test("the editor: VISUAL, then EDITOR (with its own arguments and quotes), else notepad or nano", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(editorCommand(env({ VISUAL: "code --wait", EDITOR: "vi" }), "linux"), [
    "code",
    "--wait",
  ]);
  assert.deepEqual(editorCommand(env({ EDITOR: '"C:\\Program Files\\ed.exe" -w' }), "windows"), [
    "C:\\Program Files\\ed.exe",
    "-w",
  ]);
  assert.deepEqual(editorCommand(env({ EDITOR: "  " }), "linux"), ["nano"]);
  assert.deepEqual(editorCommand(env({}), "windows"), ["notepad"]);
  assert.deepEqual(editorCommand(env({}), "darwin"), ["nano"]);
});
