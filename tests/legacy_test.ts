import assert from "node:assert/strict";
import { translateLegacyArgs } from "../lib/cli/legacy.ts";
import { runCli } from "../lib/cli/program.ts";

Deno.test("the old scripts' grammar maps onto the canonical commands", () => {
  const table: Array<[string[], string[]]> = [
    // Spec 11.1: bare and the four list forms are list mode, prompting on a pipe too.
    [[], ["list", "--interactive"]],
    [["l"], ["list", "--interactive"]],
    [["L"], ["list", "--interactive"]],
    [["-l"], ["list", "--interactive"]],
    [["-L"], ["list", "--interactive"]],
    [["l", "extra"], ["list", "--interactive"]],
    // Spec 11.2: any run of digits, in range or not; the resume decides.
    [["3"], ["resume", "3"]],
    [["0"], ["resume", "0"]],
    [["99"], ["resume", "99"]],
    [["007"], ["resume", "007"]],
    // Spec 11.1.1: the term may start with a dash or be several words; none prints the usage.
    [["-s", "my app"], ["search", "--interactive", "--", "my app"]],
    [["-S", "x"], ["search", "--interactive", "--", "x"]],
    [["-s", "my", "app"], ["search", "--interactive", "--", "my app"]],
    [["-s", "--weird"], ["search", "--interactive", "--", "--weird"]],
    [["-s"], ["search", "--interactive"]],
    [["-S"], ["search", "--interactive"]],
    // Spec 11.3: everything else is normal mode; `q` is not a list key at the top level.
    [["n"], ["new"]],
    [["N"], ["new"]],
    [["q"], ["new", "--", "q"]],
    [["--proj", "/a b"], ["new", "--proj", "/a b"]],
    [["n", "--proj", "/p", "--model", "opus"], ["new", "--proj", "/p", "--", "--model", "opus"]],
    [["--model", "opus", "--proj", "/p"], ["new", "--proj", "/p", "--", "--model", "opus"]],
    [["--proj"], ["new", "--proj"]],
    [["-p", "hello world"], ["new", "--", "-p", "hello world"]],
    [["--continue"], ["new", "--", "--continue"]],
    [["-r", "abc"], ["new", "--", "-r", "abc"]],
  ];
  for (const [input, expected] of table) {
    assert.deepEqual(translateLegacyArgs(input), expected, JSON.stringify(input));
  }
});

Deno.test("canonical commands and claudecm's own flags pass unchanged", () => {
  for (
    const args of [
      ["list"],
      ["list", "--json"],
      ["list", "--interactive"],
      ["search", "context"],
      ["search", "--json", "x"],
      ["resume", "2"],
      ["new", "--proj", "/p"],
      ["doctor", "--json"],
      ["--version"],
      ["-V"],
      ["--help"],
      ["-h"],
      ["help", "list"],
      ["recover", "--json"],
    ]
  ) {
    assert.deepEqual(translateLegacyArgs(args), args);
  }
});

Deno.test("every command in the tree is canonical: its name is not sent to claude as a new session", async () => {
  let help = "";
  await runCli(["--help"], {
    makeContext: () => {
      throw new Error("--help needs no context");
    },
    writeOut: (text) => help += text,
    writeErr: (text) => help += text,
  });
  const names = [...help.split("\nCommands:\n")[1].matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]);
  assert.ok(names.includes("adopt") && names.includes("list"), help);
  for (const name of names) {
    assert.deepEqual(translateLegacyArgs([name]), [name], `add ${name} to CANONICAL_COMMANDS`);
  }
});
