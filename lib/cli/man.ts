/**
 * `claudecm man`: print the manual page, made from the command table.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { ExitCode } from "../core/errors.ts";

/** `man`. */
export const manCommand = defineCommand({
  helpAfter: "\nPrints the page in roff; read it with: claudecm man | man -l -\n" +
    "or install it: claudecm man > ~/.local/share/man/man1/claudecm.1\n",
  run: async () => {
    const [{ manPage }, { commandTable }, { PROGRAM }, { VERSION }] = await Promise.all([
      import("./man_page.ts"),
      import("./commands.ts"),
      import("./program.ts"),
      import("../version.ts"),
    ]);
    const bytes = new TextEncoder().encode(
      manPage(PROGRAM, await commandTable(), { version: VERSION }),
    );
    let written = 0;
    while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
    return ExitCode.ok;
  },
});
