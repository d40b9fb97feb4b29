/**
 * `claudecm skeleton <guid|path>`: write a session's refresh skeleton and
 * filtered transcript.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { ExitCode } from "../core/errors.ts";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `skeleton` on the program. */
export function registerSkeletonCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("skeleton")
    .description("write a session's refresh skeleton and filtered transcript (reads only)")
    .argument("<session>", "a session id (registered or in any project folder) or a .jsonl path")
    .option("--desc <text>", "the title of the skeleton (default: the registered name)")
    .option("--out <dir>", "where the two files go (default: the current folder)")
    .addHelpText(
      "after",
      "\nWrites <guid>-skeleton.md (original intent, files modified and read, lines marked\n" +
        "[important], tool errors, recent context) and <guid>-transcript.md (the conversation\n" +
        "and one line per tool call, no tool output), and prints their paths and sizes.\n" +
        "Nothing else is written.\n\n" +
        "Exit codes: 0 ok, 1 failure (e.g. a transcript with no conversation), 2 usage error,\n" +
        `${ExitCode.notFound} session or transcript not found.\n`,
    )
    .action(async (session, options) => {
      const { runSkeleton } = await import("../app/skeleton/skeleton.ts");
      result.exitCode = runSkeleton(makeContext(), { target: session, ...options });
    });
}
