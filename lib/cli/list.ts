/**
 * `claudecm list` (old forms: `claudecm`, `l`, `L`, `-l`, `-L`): the saved
 * sessions; in a terminal, list mode (pick, edit, archive...).
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `list` on the program. */
export function registerListCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("list")
    .description("the saved sessions; in a terminal, pick one to resume it")
    .option("--json", "print the registry with each session's info as JSON, for scripts")
    .option("-i, --interactive", "list mode even when stdin is not a terminal")
    .addHelpText(
      "after",
      "\nIn a terminal (or with --interactive) this is list mode: type a session's number to\n" +
        "resume it, M to change the machine name, Enter or q to quit; other text offers to\n" +
        "create a new project of that name (default No). With stdin not a terminal it prints\n" +
        "the table and exits. Sessions open in a claude window now are marked [live].\n" +
        "Old forms: claudecm, claudecm l (these prompt on piped input too, as the old scripts did).\n",
    )
    .action(async (options) => {
      const { runList } = await import("../app/list/list.ts");
      result.exitCode = await runList(makeContext(), {
        json: options.json === true,
        interactive: options.interactive === true,
      });
    });
}
