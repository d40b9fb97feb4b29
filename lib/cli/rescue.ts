/**
 * `claudecm rescue`: find sessions that died of context overflow and turn
 * them into recovery threads in a workspace.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { DEFAULT_DAYS } from "../app/rescue/defaults.ts";
import { ExitCode } from "../core/errors.ts";
import { parsePositiveInt } from "./option_values.ts";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `rescue` on the program. */
export function registerRescueCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("rescue")
    .description("find sessions that died of context overflow and write recovery threads")
    .option(
      "--days <n>",
      `scan transcripts modified in the last N days (default ${DEFAULT_DAYS})`,
      parsePositiveInt,
    )
    .option("--session <id>", "recover this session only (any age), without asking")
    .option("--all", "recover every dead session found, without asking")
    .option("--dry-run", "show what would be written and write nothing at all")
    .option(
      "--workspace <dir>",
      "the workspace root; threads go to DIR/workspace/threads/ (default: the current folder)",
    )
    .option(
      "--summarize",
      "ask claude (-p, no session saved) for each summary; falls back to the mechanical one",
    )
    .option("--json", "print machine-readable JSON (the dead sessions, and what was recovered)")
    .addHelpText(
      "after",
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
    )
    .action(async (options) => {
      const { runRescue } = await import("../app/rescue/rescue.ts");
      result.exitCode = await runRescue(makeContext(), options);
    });
}
