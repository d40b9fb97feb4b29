/**
 * `claudecm recover`: rebuild a crashed session's working state from disk.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { DEFAULT_LIMIT } from "../app/recover/defaults.ts";
import { ExitCode } from "../core/errors.ts";
import { DEFAULT_BUDGET } from "../transcript/digest_render.ts";
import { parsePositiveInt } from "./option_values.ts";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `recover` on the program. */
export function registerRecoverCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("recover")
    .description("rebuild a crashed session in this folder from its transcript (read-only)")
    .option("--json", "print machine-readable JSON (candidates, or the digest with --session)")
    .option("--cwd <path>", "the folder whose sessions to look at (default: the current one)")
    .option("--exclude <id>", "leave this session out ($CLAUDE_CODE_SESSION_ID is always left out)")
    .option("--limit <n>", `list at most N candidates (default ${DEFAULT_LIMIT})`, parsePositiveInt)
    .option("--session <id>", "the session to digest")
    .option("--digest", "print the working-state digest of --session")
    .option(
      "--budget <chars>",
      `cut the digest to CHARS (default ${DEFAULT_BUDGET})`,
      parsePositiveInt,
    )
    .option("--strict", "fail on the first malformed transcript line instead of skipping it")
    .addHelpText(
      "after",
      "\nWithout --json or --session in a terminal, shows the most recent session and its\n" +
        "alternates, asks which to recover, and prints its digest.\n\n" +
        "Exit codes: 0 ok (also when no prior session exists), 1 failure, 2 usage error,\n" +
        `${ExitCode.notFound} session id invalid or not found.\n`,
    )
    .action(async (options) => {
      const { runRecover } = await import("../app/recover/recover.ts");
      result.exitCode = runRecover(makeContext(), options);
    });
}
