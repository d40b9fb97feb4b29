/**
 * `claudecm adopt`: add the sessions Claude Code has that the list does not.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `adopt` on the program. */
export function registerAdoptCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("adopt")
    .description("add sessions claude has on disk that the list does not know")
    .option("--all", "add every one, without asking")
    .option("--dry-run", "show what would be added; write nothing")
    .option("--json", "print machine-readable JSON; never asks (adds only with --all)")
    .addHelpText(
      "after",
      "\nLists the sessions under ~/.claude/projects that are not in the list and whose\n" +
        "folder still exists (empty ones and claude -p calls are left out), with their\n" +
        "title, folder, last activity and size. In a terminal, pick numbers or 'all'.\n" +
        "Added rows go below the existing ones, newest first, named by the session's\n" +
        "custom title, else Claude's title, else its first prompt. Running it again adds\n" +
        "nothing twice.\n\n" +
        "Exit codes: 0 ok, 1 failure, 2 usage error.\n",
    )
    .action(async (options) => {
      const { runAdopt } = await import("../app/find/adopt.ts");
      result.exitCode = await runAdopt(makeContext(), options);
    });
}
