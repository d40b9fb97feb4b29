/**
 * `claudecm man` (issue 33.6): the page is made from the command table,
 * names every command and option, and groff reads it without a warning.
 */

import assert from "node:assert/strict";
import { PROGRAM } from "../lib/cli/program.ts";
import { commandTable } from "../lib/cli/commands.ts";
import { completionModel } from "../lib/cli/completion_model.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { toolAvailable } from "./helpers/test_tools.ts";
import { ON_WINDOWS } from "./helpers/portable.ts";

async function page(): Promise<string> {
  const t = createTestContext();
  try {
    const result = await runClaudecm(["man"], { env: t.env, cwd: t.home });
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  } finally {
    t.cleanup();
  }
}

Deno.test("the man page names every command, each of its options, and the exit codes", async () => {
  const text = (await page()).replace(/\\-/g, "-");
  assert.match(text, /^\.TH CLAUDECM 1 /);
  const [program, ...commands] = completionModel(PROGRAM, await commandTable());
  // The program's own options (-V, --version), from the table its --help and completions read.
  const own = text.slice(text.indexOf(".SH OPTIONS"), text.indexOf(".SH COMMANDS"));
  for (const option of program.options) {
    assert.ok(own.includes(`${option.short}, ${option.long}`), `the program's ${option.long}`);
  }
  for (const command of commands) {
    assert.ok(text.includes(`.B claudecm ${command.path.join(" ")}`), command.path.join(" "));
    for (const option of command.options.filter((o) => o.long !== "--help")) {
      assert.ok(text.includes(option.long), `${command.path.join(" ")} ${option.long}`);
    }
  }
  assert.match(text, /\.SH EXIT STATUS/);
  assert.doesNotMatch(text, /__complete/);
});

Deno.test({
  name: "groff -man -ww reads the man page without a warning",
  ignore: ON_WINDOWS || !toolAvailable("groff"),
  fn: async () => {
    const child = new Deno.Command("groff", {
      args: ["-man", "-ww", "-Tutf8", "-z"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(await page()));
    await writer.close();
    const output = await child.output();
    assert.equal(new TextDecoder().decode(output.stderr), "");
    assert.ok(output.success);
  },
});
