// Issue 33 (a regression of 26c2192): a --json line that fails before it names a command still
// gets its JSON failure object on stdout, beside the one line on stderr.
import assert from "node:assert/strict";
import { runClaudecm } from "./helpers/run_cli.ts";
import { createFakeWorld } from "./helpers/fakes.ts";

Deno.test("a --json line that fails before a command is named prints the JSON failure object", async () => {
  const world = createFakeWorld();
  try {
    const cases: string[][] = [
      ["lsit", "--json"], // a typo of a command
      ["rm", "--json"], // a bare word
      ["vault", "sycn", "--json"], // an unknown subcommand
      ["help", "lsit", "--json"],
      ["skill", "--json"], // a group's unknown option
      ["--json", "list"], // --json before the command word
      ["--json", "lsit"],
      ["--json"],
      ["-p", "question", "--json"], // claude takes no --json: it was claudecm's
      ["n", "--json"],
      ["", "--json"], // an unset variable
      [" 1", "--json"], // a number as not typed
      ["list", "--json", "extra"], // after the command word
      ["vault", "sync", "--bogus", "--json"],
    ];
    for (const args of cases) {
      const run = await runClaudecm(args, { env: world.env, cwd: world.home });
      const shown = JSON.stringify(args);
      assert.equal(run.code, 2, `${shown}: ${run.stderr}`);
      assert.match(run.stderr, /^claudecm: /, shown);
      assert.equal(run.stdout.split("\n").length, 2, `${shown}: one object, one line`);
      const json = JSON.parse(run.stdout);
      assert.deepEqual(Object.keys(json), ["status", "exitCode", "message"], shown);
      assert.equal(json.status, "usage-error", shown);
      assert.equal(json.exitCode, 2, shown);
      assert.equal(`claudecm: ${json.message}\n`, run.stderr, `${shown}: the words of stderr`);
    }
    // Nothing reached claude: no launch for any of them.
    assert.deepEqual(world.argv("claude"), []);
  } finally {
    world.cleanup();
  }
});

Deno.test("without --json among claudecm's own words, a failing line prints nothing on stdout", async () => {
  const world = createFakeWorld();
  try {
    const cases: string[][] = [
      ["lsit"],
      ["rm", "--", "--json"], // after --, the words are claude's
      ["vault", "sycn"],
      ["export", "-o", "--json", "--bogus"], // --json as -o's value
    ];
    for (const args of cases) {
      const run = await runClaudecm(args, { env: world.env, cwd: world.home });
      assert.equal(run.code, 2, `${JSON.stringify(args)}: ${run.stderr}`);
      assert.equal(run.stdout, "", JSON.stringify(args));
    }
  } finally {
    world.cleanup();
  }
});
