/**
 * `claudecm move OLD NEW`: sessions follow a project folder the user moved.
 *
 * @module
 */

import { defineCommand } from "./command.ts";

/** `move`. */
export const moveCommand = defineCommand({
  arguments: [
    { name: "<old>", description: "the folder's old path (it may no longer exist)" },
    { name: "<new>", description: "the folder's new path (it must exist)" },
  ],
  options: [
    { flags: "--dry-run", description: "show what would move; write nothing" },
    { flags: "--json", description: "print the plan and outcome as JSON; never asks" },
  ],
  helpAfter:
    "\nClaude Code keys transcripts by folder: after `mv OLD NEW`, `claude --resume` no longer\n" +
    "finds them. This moves what Claude Code and claudecm keep about OLD and every folder\n" +
    "below it to NEW: transcripts and session folders (renamed, not rewritten), memory/,\n" +
    "vault copies, the folder's entries in ~/.claude.json (trust, tools), its lines in\n" +
    "claude's prompt history (~/.claude/history.jsonl) and the rows of sessions.txt\n" +
    "(updated last). Like claude's /cd, each moved transcript gets a relocated record\n" +
    "and claude's task-output links follow. Project files are not touched. In a\n" +
    "terminal it shows the plan and asks first. Running it again finishes an interrupted\n" +
    "move; a finished one has nothing to do. Two paths with one project key (a-b, a/b):\n" +
    "rows and settings move, the files stay (claude finds them from either). For a deleted\n" +
    "worktree: claudecm move WORKTREE REPO.\n\n" +
    "Refused, with nothing written: a session under OLD still running; a different file\n" +
    "already at a target; NEW's project key shared with another folder; NEW inside OLD.\n\n" +
    "Exit codes: 0 ok (or nothing to do), 1 refused or failed, 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runMove }, ctx] = await Promise.all([import("../app/move/move.ts"), makeContext()]);
    return await runMove(ctx, {
      from: input.argText("old")!,
      to: input.argText("new")!,
      dryRun: input.flag("dryRun"),
      json: input.flag("json"),
    });
  },
});
