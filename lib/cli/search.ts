/**
 * `claudecm search TERM` (old forms `claudecm -s TERM`, `-S TERM`): the
 * sessions whose name contains TERM; pick one by its number to resume it.
 *
 * @module
 */

import { defineCommand } from "./command.ts";

/** `search`. */
export const searchCommand = defineCommand({
  arguments: [
    {
      name: "[term...]",
      description: "text to find in session names (case-insensitive; folders are not searched); " +
        "several words are one text, as with -s",
    },
  ],
  options: [
    {
      flags: "--json",
      description: "print the matches as JSON, for scripts (read-only, never prompts)",
    },
    {
      flags: "-i, --interactive",
      description: "prompt for a number even when stdin or stdout is not a terminal",
    },
  ],
  helpAfter: "\nIn a terminal it asks for a number: each match shows its number in the list\n" +
    "(the one claudecm resume N takes), and that number resumes it. Piped (stdin or\n" +
    "stdout) it prints the matches and '<hits> of <total>' and exits, unless\n" +
    "--interactive.\n" +
    "Old forms: claudecm -s TERM, claudecm -S TERM.\n" +
    "Exit codes: 0 ok (also when nothing matches), 1 the resume failed, 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runSearch }, ctx] = await Promise.all([
      import("../app/search/search.ts"),
      // --interactive asks for a pick, a dialogue; the matches alone are data for stdout.
      makeContext({ menu: input.flag("interactive") }),
    ]);
    return await runSearch(ctx, {
      // `search my app` is the name "my app", as `claudecm -s my app` always was.
      term: input.argList("term").join(" ") || undefined,
      json: input.flag("json"),
      interactive: input.flag("interactive"),
    });
  },
});
