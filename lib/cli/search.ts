/**
 * `claudecm search TERM` (old forms `claudecm -s TERM`, `-S TERM`): the
 * sessions whose name contains TERM; pick one by its number to resume it.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `search` on the program. */
export function registerSearchCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("search")
    .description("list the sessions whose name contains TERM; pick one to resume it")
    .argument(
      "[term]",
      "text to find in session names (case-insensitive; folders are not searched)",
    )
    .option("--json", "print the matches as JSON, for scripts (read-only, never prompts)")
    .option("-i, --interactive", "prompt for a number even when stdin is not a terminal")
    .addHelpText(
      "after",
      "\nIn a terminal it asks for a number: the matches are numbered 1, 2, ... in the\n" +
        "filtered list, and that number resumes that session. With stdin not a terminal it\n" +
        "prints the matches and '<hits> of <total>' and exits, unless --interactive.\n" +
        "Old forms: claudecm -s TERM, claudecm -S TERM.\n" +
        "Exit codes: 0 ok (also when nothing matches), 1 the resume failed, 2 usage error.\n",
    )
    .action(async (term, options) => {
      const { runSearch } = await import("../app/list/search.ts");
      result.exitCode = await runSearch(makeContext(), {
        term,
        json: options.json === true,
        interactive: options.interactive === true,
      });
    });
}
