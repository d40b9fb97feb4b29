/**
 * `claudecm rescue`: find sessions that died of context overflow and turn
 * them into recovery threads in a workspace.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { DEFAULT_DAYS } from "../app/rescue/defaults.ts";
import { ExitCode } from "../core/errors.ts";
import { parsePositiveInt } from "./option_values.ts";

/** `rescue`. */
export const rescueCommand = defineCommand({
  options: [
    {
      flags: "--days <n>",
      description: `scan transcripts modified in the last N days (default ${DEFAULT_DAYS})`,
      parse: parsePositiveInt,
    },
    { flags: "--session <id>", description: "recover this session only (any age), without asking" },
    { flags: "--all", description: "recover every dead session found, without asking" },
    { flags: "--dry-run", description: "show what would be written and write nothing at all" },
    {
      flags: "--workspace <dir>",
      description:
        "the workspace root; threads go to DIR/workspace/threads/ (default: the current folder)",
    },
    {
      flags: "--summarize",
      description:
        "ask claude (-p, no session saved) for each summary; falls back to the mechanical one",
    },
    {
      flags: "--json",
      description: "print machine-readable JSON (the dead sessions, and what was recovered)",
    },
  ],
  helpAfter:
    '\nA session is dead when its transcript ends in "Prompt is too long", "Conversation\n' +
    'too long" or "Error during compaction" with nothing productive after it; one that\n' +
    "compacted and went on is not. Subagent transcripts are never candidates, nor are\n" +
    "transcripts of 10 KB or less, nor sessions a thread in the workspace already recovered.\n\n" +
    "In a terminal without --all or --session, lists the dead sessions and asks which to\n" +
    "recover; otherwise it only lists them. Each recovered session becomes\n" +
    "workspace/threads/T-<death time>-recovered-<slug>.json, and recent.md, INDEX.md and\n" +
    "handoff.json there are updated. Nothing is ever committed.\n\n" +
    "Exit codes: 0 ok (also when nothing is dead), 1 failure, 2 usage error,\n" +
    `${ExitCode.notFound} session id invalid or not found.\n`,
  run: async (input, makeContext) => {
    const [{ runRescue }, ctx] = await Promise.all([
      import("../app/rescue/rescue.ts"),
      makeContext(),
    ]);
    return await runRescue(ctx, {
      days: input.number("days"),
      session: input.text("session"),
      all: input.flag("all"),
      dryRun: input.flag("dryRun"),
      workspace: input.text("workspace"),
      summarize: input.flag("summarize"),
      json: input.flag("json"),
    });
  },
});
