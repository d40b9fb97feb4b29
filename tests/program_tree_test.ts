import assert from "node:assert/strict";
import type { CommandSpec } from "../lib/cli/command.ts";
import { formatHelp } from "../lib/cli/help.ts";
import { PROGRAM } from "../lib/cli/program.ts";
import { commandTable } from "../lib/cli/commands.ts";

Deno.test("the tree's synopsis of each command is what the command's file declares", async () => {
  // The program's --help lists commands from the tree alone, so it loads no command's file.
  const named = PROGRAM.subcommands!;
  assert.ok(named.filter((command) => command.load !== undefined).length >= 15);
  for (const command of named) {
    if (command.load !== undefined) {
      assert.ok(command.synopsis !== undefined, `${command.name} has a synopsis`);
    }
  }
  const loaded: CommandSpec[] = await commandTable();
  const options = { program: PROGRAM.name, path: [] };
  assert.equal(
    formatHelp(PROGRAM, options),
    formatHelp({ ...PROGRAM, subcommands: loaded }, options),
  );
});
