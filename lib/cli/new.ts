/**
 * `claudecm new`: start (or resume) the session of a directory.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `new` on the program. */
export function registerNewCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("new")
    .description("start claude in a directory: resume its saved session, or name a new one")
    .option("--proj <dir>", "the project directory (default: the current one)")
    .argument("[claude-args...]", "arguments for claude, after --")
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  claudecm new                      # this directory's session, or a new named one\n" +
        "  claudecm new --proj ~/src/app     # the same for another directory\n" +
        "  claudecm new -- --model opus      # a new session, with arguments for claude\n" +
        "Old forms: claudecm n, claudecm --proj DIR, claudecm <claude arguments>.\n" +
        "Exit code: claude's, when it failed; 0 otherwise.\n",
    )
    .action(async (claudeArgs, options) => {
      const { runNew } = await import("../app/new/new_session.ts");
      result.exitCode = await runNew(makeContext(), { proj: options.proj, passArgs: claudeArgs });
    });
}
