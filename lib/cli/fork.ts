/**
 * `claudecm fork N [--name NAME] [--json]`: go on with a session in a branch of it.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { parseSessionName, parseSessionRef, SESSION_REF_HELP } from "./option_values.ts";

/** `fork`. */
export const forkCommand = defineCommand({
  arguments: [{ name: "<session>", description: SESSION_REF_HELP, parse: parseSessionRef }],
  options: [
    {
      flags: "--name <name>",
      description: "the branch's name in the list (default: the session's, with ' (fork)')",
      parse: parseSessionName,
    },
    {
      flags: "--json",
      description: "once claude exits, print the branch's id, name and number as JSON; never asks",
    },
  ],
  helpAfter: "\nResumes the session with claude's --fork-session: claude goes on in a new\n" +
    "conversation that starts with all of this one, and the original stays as it was.\n" +
    "The branch gets its own entry in the list. With --json, claudecm's own lines go to stderr\n" +
    "and, once claude exits, stdout's last line is a JSON object: sessionId, name and number\n" +
    "of the branch (null when claude made none), status (forked, or no-session), exitCode and\n" +
    "forkOf.\n" +
    "Exit codes: 0 ok, 1 the session could not be resumed, 2 usage error.\n",
  run: async (input, makeContext) => {
    const json = input.flag("json");
    const [{ runFork }, ctx] = await Promise.all([
      import("../app/resume/fork.ts"),
      // With --json, stdout is the document's and the flow speaks on stderr (jsonRunContext).
      makeContext({ launches: !json }),
    ]);
    return await runFork(ctx, { ref: input.argText("session")!, name: input.text("name"), json });
  },
});
