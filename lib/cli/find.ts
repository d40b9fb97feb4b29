/**
 * `claudecm find TERM...`: search every session's text, resume a hit.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { DEFAULT_FIND_LIMIT } from "../app/find/defaults.ts";
import { parsePositiveInt } from "./option_values.ts";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `find` on the program. */
export function registerFindCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("find")
    .description("search what was said in every session, in every project, and resume a hit")
    .argument("<terms...>", "words that must all appear; a quoted phrase; word* for a prefix")
    .option("--role <role>", "only text from user, assistant or tool (calls); repeatable", collect)
    .option("--project <dir>", "only sessions of this folder")
    .option("--since <when>", "only text written since: 7d, 24h, 30m, 2w or a date (2026-11-01)")
    .option(
      "--limit <n>",
      `show at most N sessions (default ${DEFAULT_FIND_LIMIT})`,
      parsePositiveInt,
    )
    .option("--tool-output", "search what tools answered too (left out by default)")
    .option("--regex", "the terms are one regular expression; scans without the index")
    .option("--no-index", "scan the transcripts without the index (writes nothing)")
    .option("--json", "print machine-readable JSON; never asks")
    .addHelpText(
      "after",
      "\nSearches user and assistant text and tool calls (commands, file paths, patterns)\n" +
        "in every transcript under ~/.claude/projects, subagents included. Results are\n" +
        "sessions, best first (relevance weighted by recency), with up to 3 matches each.\n" +
        "In a terminal, type a result's number to resume it; a session not in the list is\n" +
        "added first.\n\n" +
        "The index lives in ~/.claudecm/find-index.db. It is brought up to date before\n" +
        "every search (only new bytes are read) and is safe to delete. Of tool calls and\n" +
        "tool output, a call's first 4 KB and an output's first and last 2 KB are searched.\n\n" +
        "Examples:\n" +
        "  claudecm find migrate schema          sessions that mention both words\n" +
        '  claudecm find "connection refused"    an exact phrase\n' +
        "  claudecm find 'deploy*' --since 7d    a prefix, this week only\n" +
        "  claudecm find pytest --role tool      only in tool calls\n\n" +
        "Exit codes: 0 ok (also when nothing matches), 1 failure, 2 usage error.\n",
    )
    .action(async (terms, options) => {
      const { runFind } = await import("../app/find/find.ts");
      result.exitCode = await runFind(makeContext(), {
        terms,
        role: options.role,
        project: options.project,
        since: options.since,
        limit: options.limit,
        json: options.json,
        index: options.index,
        regex: options.regex,
        toolOutput: options.toolOutput,
      });
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(",").map((part) => part.trim())];
}
