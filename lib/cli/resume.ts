/**
 * `claudecm resume N`: resume session #N of the list.
 *
 * @module
 */

import { type Command, InvalidArgumentError } from "@commander-js/extra-typings";
import { parseWholeNumber } from "../core/numbers.ts";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `resume` on the program. */
export function registerResumeCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("resume")
    .description("resume session #N of the list (old form: claudecm N)")
    .argument("<number>", "the session's number in `claudecm list`", parseNumber)
    .addHelpText(
      "after",
      "\nFollows a fork: when claude continues the session in a new transcript, the list\n" +
        "points there and the old transcript moves to ~/.claudecm/backup/<project>/.\n" +
        "Exit codes: 0 ok, 1 the session could not be resumed, 2 usage error.\n",
    )
    .action(async (number) => {
      const { runResume } = await import("../app/resume/resume_number.ts");
      result.exitCode = await runResume(makeContext(), { number });
    });
}

function parseNumber(text: string): number {
  const number = parseWholeNumber(text);
  if (number === null) throw new InvalidArgumentError("expected a session number (1, 2, ...)");
  if (number === 0) {
    throw new InvalidArgumentError("there is no session #0: sessions are numbered from 1");
  }
  return number;
}
