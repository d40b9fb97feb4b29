/**
 * `claudecm new`: start (or resume) the session of a directory.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { parseSessionName } from "./option_values.ts";

/** `new`. */
export const newCommand = defineCommand({
  arguments: [
    { name: "[claude-args...]", description: "arguments for claude, after --" },
  ],
  options: [
    { flags: "--proj <dir>", description: "the project directory (default: the current one)" },
    {
      flags: "--name <name>",
      description: "start a new session of this name at once (no resume offer, no question)",
      parse: parseSessionName,
    },
    {
      flags: "--json",
      description: "with --name: once claude exits, print the session's id, name and number as " +
        "JSON; never asks",
    },
  ],
  helpAfter: "\nExamples:\n" +
    "  claudecm new                      # this directory's session, or a new named one\n" +
    "  claudecm new --proj ~/src/app     # the same for another directory\n" +
    '  claudecm new --name "api tests"   # a new session of that name, nothing asked\n' +
    '  claudecm new --name "api" --json  # the same; then a JSON line: sessionId, name, number\n' +
    "  claudecm new -- --model opus      # a new session, with arguments for claude\n" +
    "Old forms: claudecm n, claudecm --proj DIR, claudecm <claude arguments>.\n" +
    "Exit codes: 0 ok; for a new session, claude's when it failed; 1 when a resume failed.\n",
  run: async (input, makeContext) => {
    const json = input.flag("json");
    const [{ runNew }, ctx] = await Promise.all([
      import("../app/new/new_session.ts"),
      // With --json, stdout is the document's and the flow speaks on stderr (jsonRunContext).
      makeContext({ launches: !json }),
    ]);
    return await runNew(ctx, {
      proj: input.text("proj"),
      passArgs: input.argList("claude-args"),
      name: input.text("name"),
      json,
    });
  },
});
