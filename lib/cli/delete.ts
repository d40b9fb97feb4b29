/**
 * `claudecm delete N`: list mode's D# as a command.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { parseSessionRef, SESSION_REF_HELP } from "./option_values.ts";

/** `delete`. */
export const deleteCommand = defineCommand({
  arguments: [{ name: "<session>", description: SESSION_REF_HELP, parse: parseSessionRef }],
  options: [
    { flags: "--yes", description: "delete without asking (what is deleted is still listed)" },
    {
      flags: "--json",
      description: "print what was deleted as JSON (never asks: needs --yes)",
    },
  ],
  helpAfter:
    "\nDeletes the session for good, as D# in list mode's edit list (E) does: every copy of\n" +
    "its transcript and its folder under ~/.claude/projects, its vault copy, the copies set\n" +
    "aside in the backup folder, and its entry. In a terminal it lists them and asks you to\n" +
    "type 'delete'; without a terminal it refuses unless --yes. A session open in a claude\n" +
    "window is never deleted; what was listed is checked again just before it goes.\n" +
    "Exit codes: 0 deleted, 1 not deleted (cancelled, refused, or not all of it), 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runDelete }, ctx] = await Promise.all([
      import("../app/edit/verbs.ts"),
      makeContext(),
    ]);
    return await runDelete(ctx, {
      ref: input.argText("session")!,
      yes: input.flag("yes"),
      json: input.flag("json"),
    });
  },
});
