/**
 * `claudecm rename N NAME`: list mode's R# as a command.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { parseSessionName, parseSessionRef, SESSION_REF_HELP } from "./option_values.ts";

/** `rename`. */
export const renameCommand = defineCommand({
  arguments: [
    { name: "<session>", description: SESSION_REF_HELP, parse: parseSessionRef },
    {
      name: "<name>",
      description: "its new name (quote a name with spaces)",
      parse: parseSessionName,
    },
  ],
  options: [{ flags: "--json", description: "print the session id, its new and old name as JSON" }],
  helpAfter: "\nThe same rename as R# in list mode's edit list (E).\n" +
    "Exit codes: 0 renamed, 1 no such session (or another window removed it), 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runRename }, ctx] = await Promise.all([
      import("../app/edit/verbs.ts"),
      makeContext(),
    ]);
    return await runRename(ctx, {
      ref: input.argText("session")!,
      name: input.argText("name")!,
      json: input.flag("json"),
    });
  },
});
