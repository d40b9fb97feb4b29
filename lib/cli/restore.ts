/**
 * `claudecm restore <N|GUID>`: put a session back from the vault.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { SESSION_REF_HELP } from "./option_values.ts";

/** `restore`. */
export const restoreCommand = defineCommand({
  arguments: [
    { name: "<session>", description: SESSION_REF_HELP },
  ],
  options: [
    {
      flags: "--json",
      description:
        "print the session id, the outcome (restored or in-place) and where the transcript is",
    },
  ],
  helpAfter: "\nPuts the transcript and its sidecar folder back where claude reads them (the\n" +
    "registered folder's project folder), by hard link or copy. Never replaces a file:\n" +
    "when a different one is already there, it says so and writes nothing.\n" +
    "Exit codes: 0 restored (or already in place), 1 not restored, 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runRestore }, ctx] = await Promise.all([
      import("../app/restore/restore.ts"),
      makeContext(),
    ]);
    return await runRestore(ctx, { ref: input.argText("session")!, json: input.flag("json") });
  },
});
