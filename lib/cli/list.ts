/**
 * `claudecm list`: the registry with each session's info.
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
    .description("list registered sessions (main and archived)")
    .option("--json", "print the registry with each session's info as JSON, for scripts")
    .action(async (options) => {
      const { runList } = await import("../app/list/list.ts");
      result.exitCode = await runList(makeContext(), { json: options.json === true });
    });
}
