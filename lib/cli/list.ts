/**
 * `claudecm list` (old forms: `claudecm`, `l`, `L`, `-l`, `-L`): the saved
 * sessions; in a terminal, list mode (pick, edit, archive...).
 *
 * @module
 */

import { defineCommand } from "./command.ts";

/** `list`. */
export const listCommand = defineCommand({
  options: [
    {
      flags: "--json",
      description: "print the registry with each session's info as JSON, for scripts",
    },
    {
      flags: "--numbers",
      description: "the numbered menu in a terminal, not the picker",
    },
    {
      flags: "-i, --interactive",
      description: "list mode even when stdin or stdout is not a terminal",
    },
  ],
  helpAfter:
    "\nIn a terminal this is the picker: type to filter by name, folder or what was said,\n" +
    'arrows to move, Enter to resume, Esc to leave. With --numbers (or "menu": "numbers" in\n' +
    "~/.claudecm/config.json), and with --interactive off a terminal, it is list mode: type a\n" +
    "session's number to resume it, M to change the machine name, Enter or q to quit; other\n" +
    "text offers to create a new project of that name (default No). With stdin not a terminal\n" +
    "it prints the table and exits. Sessions open in a claude window now are marked [live].\n" +
    "Old forms: claudecm, claudecm l (these prompt on piped input too, as the old scripts did).\n",
  run: async (input, makeContext) => {
    // --interactive is list mode, a dialogue; the table alone is data for stdout.
    const [{ runList }, ctx] = await Promise.all([
      import("../app/list/list.ts"),
      makeContext({ menu: input.flag("interactive") }),
    ]);
    return await runList(ctx, {
      json: input.flag("json"),
      interactive: input.flag("interactive"),
      numbers: input.flag("numbers"),
    });
  },
});
