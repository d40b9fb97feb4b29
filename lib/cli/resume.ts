/**
 * `claudecm resume N`: resume session #N of the list (or one its name or id names).
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { parseSessionRef, SESSION_REF_HELP } from "./option_values.ts";

/** `resume`. */
export const resumeCommand = defineCommand({
  arguments: [
    {
      name: "<session>",
      description: SESSION_REF_HELP,
      parse: parseSessionRef,
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
    return await runResume(ctx, { ref: input.argText("session")! });
  },
});
