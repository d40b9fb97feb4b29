import assert from "node:assert/strict";
import { translateLegacyArgs } from "../lib/cli/legacy.ts";

Deno.test("the old scripts' grammar maps onto the canonical commands", () => {
  const table: Array<[string[], string[]]> = [
    [[], ["list"]],
    [["l"], ["list"]],
    [["L"], ["list"]],
    [["-l"], ["list"]],
    [["-L"], ["list"]],
    [["3"], ["resume", "3"]],
    [["-s", "my app"], ["search", "my app"]],
    [["-S", "x"], ["search", "x"]],
    [["n"], ["new"]],
    [["N"], ["new"]],
    [["--proj", "/a b"], ["new", "--proj", "/a b"]],
    [["n", "--proj", "/p", "--model", "opus"], ["new", "--proj", "/p", "--", "--model", "opus"]],
    [["-p", "hello world"], ["new", "--", "-p", "hello world"]],
    [["--continue"], ["new", "--", "--continue"]],
  ];
  for (const [input, expected] of table) {
    assert.deepEqual(translateLegacyArgs(input), expected, JSON.stringify(input));
  }
});

Deno.test("canonical commands and claudecm's own flags pass unchanged", () => {
  for (
    const args of [
      ["list", "--json"],
      ["resume", "2"],
      ["new", "--proj", "/p"],
      ["doctor", "--json"],
      ["--version"],
      ["-V"],
      ["--help"],
      ["recover", "--json"],
    ]
  ) {
    assert.deepEqual(translateLegacyArgs(args), args);
  }
});
