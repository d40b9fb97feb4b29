/**
 * `claudecm resume N`: resume session #N of the list.
 *
 * @module
 */

import { type CommandDetails, InvalidValueError } from "./command.ts";
import { parseWholeNumber } from "../core/numbers.ts";

/** `resume`. */
export const resumeCommand: CommandDetails = {
  arguments: [
    {
      name: "<number>",
      description: "the session's number in `claudecm list`",
      parse: parseNumber,
    },
  ],
  helpAfter: "\nFollows a fork: when claude continues the session in a new transcript, the list\n" +
    "points there and the old transcript moves to ~/.claudecm/backup/<project>/.\n" +
    "Exit codes: 0 ok, 1 the session could not be resumed, 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runResume }, ctx] = await Promise.all([
      import("../app/resume/resume_number.ts"),
      makeContext({ launches: true }),
    ]);
    return await runResume(ctx, { number: input.argNumber("number")! });
  },
};

function parseNumber(text: string): number {
  const number = parseWholeNumber(text);
  if (number === null) throw new InvalidValueError("expected a session number (1, 2, ...)");
  if (number === 0) {
    throw new InvalidValueError("there is no session #0: sessions are numbered from 1");
  }
  return number;
}
