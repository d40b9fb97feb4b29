/**
 * `claudecm archive N` and `claudecm unarchive N`: list mode's A# and U#
 * (in the archived view, V) as commands.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { parseSessionRef, SESSION_REF_HELP } from "./option_values.ts";

/** `archive`. */
export const archiveCommand = defineCommand({
  arguments: [{ name: "<session>", description: SESSION_REF_HELP, parse: parseSessionRef }],
  options: [{ flags: "--json", description: "print the session id and its new place as JSON" }],
  helpAfter: "\nMoves the session to the archived list (list mode's V), as A# does; nothing on\n" +
    "disk changes. claudecm unarchive puts it back.\n" +
    "Exit codes: 0 archived, 1 no such session or already archived, 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runArchive }, ctx] = await Promise.all([
      import("../app/edit/verbs.ts"),
      makeContext(),
    ]);
    return await runArchive(ctx, { ref: input.argText("session")!, json: input.flag("json") });
  },
});

/** `unarchive`. */
export const unarchiveCommand = defineCommand({
  arguments: [{
    name: "<session>",
    description: "its number in the archived list (list mode's V), its session id, or its name",
    parse: parseSessionRef,
    // Completions offer the archived list's numbers, which this takes, not the main list's.
    kind: "archived-session",
  }],
  options: [{ flags: "--json", description: "print the session id and its new place as JSON" }],
  helpAfter: "\nPuts an archived session back at #1 of the list, as U# in list mode's V does.\n" +
    "Exit codes: 0 unarchived, 1 no such session or not archived, 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runUnarchive }, ctx] = await Promise.all([
      import("../app/edit/verbs.ts"),
      makeContext(),
    ]);
    return await runUnarchive(ctx, { ref: input.argText("session")!, json: input.flag("json") });
  },
});
