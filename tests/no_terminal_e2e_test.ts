/**
 * A question with nobody to answer it is never printed (issue 31 defect 2):
 * without a terminal the machine name is the lowercased hostname for that
 * run, unsaved (DESIGN.md 5.2); with stdin a file or /dev/null, whose end
 * is known, no question is shown that has no answer there, and each takes
 * its default or refuses in one line. A pipe may be a program answering
 * what it reads, so its questions are still shown and its answers read.
 */

import assert from "node:assert/strict";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { claudecmCommand, type RunResult } from "./helpers/run_cli.ts";
import { collectOutput } from "./helpers/child.ts";
import type { LaunchWorld } from "./helpers/launch_world.ts";

/** What a person reads of a run: claudecm's lines are on stderr when stdout is a pipe. */
function shown(result: { stdout: string; stderr: string }): string {
  return result.stdout + result.stderr;
}

const HOST = Deno.hostname().toLowerCase();

/** claudecm with stdin from /dev/null, as cron or `</dev/null` runs it. */
function runWithNoInput(world: LaunchWorld, args: string[]): Promise<RunResult> {
  const command = claudecmCommand(args, { env: world.env, cwd: world.project, noStdin: true });
  return collectOutput(command.spawn());
}

Deno.test("first run without a terminal: no machine-name question, the hostname unsaved", async () => {
  await inWorldWithoutCmv(async (world) => {
    Deno.removeSync(world.paths.machineNameFile);
    seedSessions(world, [{ desc: "Backend" }]);
    world.claudeScenario({ messages: ["carry on"] });
    for (const args of [[], ["resume", "1"]]) {
      const result = await world.run(args, { stdin: "" });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(shown(result), /Machine name for remote display/, args.join(" "));
      assert.ok(!pathExists(world.paths.machineNameFile), "nothing saved: a terminal still asks");
    }
    const [launch] = world.launches();
    assert.equal(launch.argv[launch.argv.indexOf("-n") + 1], `${HOST} - Backend`);
  });
});

Deno.test({
  name: "stdin /dev/null: no question is printed, each takes its default",
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "Backend" }]);
      // List mode's pick quits; new's resume offer is a No at the end of input (DESIGN.md 5.14).
      const list = await runWithNoInput(world, []);
      assert.equal(list.code, 0, list.stderr);
      assert.doesNotMatch(shown(list), /Pick a session/);
      const offered = await runWithNoInput(world, ["new"]);
      assert.equal(offered.code, 0, offered.stderr);
      assert.doesNotMatch(shown(offered), /\? \[|Rename\?|Create a name/);
      assert.match(shown(offered), /No answer: no session started \(stdin is not a terminal/);
      assert.equal(world.launches().length, 0);
      assert.deepEqual(world.sessions().map((s) => s.desc), ["Backend"]);
    });
  },
});

Deno.test({
  name: "new in a new folder with stdin /dev/null refuses in one line, saying what answers it",
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      const result = await runWithNoInput(world, ["new"]);
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(shown(result), /Create a name for this session/);
      assert.match(
        shown(result),
        /No answer: no session started \(stdin is not a terminal; .*claudecm new --name NAME\)\./,
      );
      assert.equal(world.launches().length, 0);
    });
  },
});

Deno.test("answers a script pipes in are still read, each question shown", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["hello"] });
    const result = await world.run(["new"], { stdin: "Scripted\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(shown(result), /Create a name for this session/);
    assert.equal(world.sessions()[0].desc, "Scripted");
  });
});
