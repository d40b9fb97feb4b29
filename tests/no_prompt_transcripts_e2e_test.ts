/**
 * A conversation with no real prompt (only `/clear`, what `/clear` leaves) is
 * no session anywhere: adopt leaves it out, and so do the orphan table before
 * a pick and in `new`, and a launch's look for new transcripts (issue 31
 * defect 6's class). One rule: lib/transcript/session_facts.ts `isNoSession`.
 */

import assert from "node:assert/strict";
import { inWorldWithoutCmv, PROJECT_KEY_IMPORT, useClaudeScript } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { save } from "./helpers/projects.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { ON_WINDOWS } from "./helpers/portable.ts";

const CLEAR = "<command-name>/clear</command-name>\n<command-message>clear</command-message>";

/** What a person reads of a run: claudecm's lines are on stderr when stdout is a pipe. */
function shown(result: { stdout: string; stderr: string }): string {
  return result.stdout + result.stderr;
}

Deno.test("a /clear-only transcript stops neither new nor resume at the orphan table", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Backend" }]);
    const folder = projectDirFor(world.paths, world.project);
    save(folder, new TranscriptBuilder({ cwd: world.project }).prompt(CLEAR));
    world.claudeScenario({ messages: ["carry on"] });
    const fresh = await world.run(["new"], { stdin: "\n\n" });
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.doesNotMatch(shown(fresh), /Multiple conversation files found/);
    assert.deepEqual(world.launches()[0].argv.slice(1, 3), ["--resume", main[0].guid]);
    const resumed = await world.run(["resume", "1"], { stdin: "" });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.doesNotMatch(shown(resumed), /Multiple conversation files found/);
    const adopt = await world.run(["adopt", "--dry-run", "--json"], { stdin: "" });
    assert.deepEqual(JSON.parse(adopt.stdout).candidates, []);
  });
});

Deno.test("a transcript with a real prompt beside it is still shown as an orphan", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, [{ desc: "Backend" }]);
    const folder = projectDirFor(world.paths, world.project);
    save(folder, new TranscriptBuilder({ cwd: world.project }).prompt(CLEAR));
    save(folder, new TranscriptBuilder({ cwd: world.project }).prompt("lost work").text("ok"));
    world.claudeScenario({ messages: ["carry on"] });
    const resumed = await world.run(["resume", "1"], { stdin: "\n" });
    assert.equal(resumed.code, 0, resumed.stderr);
    const table = shown(resumed);
    assert.match(table, /Multiple conversation files found/);
    assert.match(table, /\(orphan\) lost work/);
    assert.equal(table.match(/\(orphan\)/g)?.length, 2, "one orphan row, and the legend");
  });
});

Deno.test({
  name: "a /clear-only transcript a resume leaves is no fork and not named for adopt",
  ignore: Deno.build.os === "windows", // the claude script's shim is a shell script
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      const { main } = seedSessions(world, [{ desc: "Backend" }]);
      const builder = JSON.stringify(
        new URL("../fixtures/transcripts/builder.ts", import.meta.url).href,
      );
      useClaudeScript(
        world,
        `${PROJECT_KEY_IMPORT}import { TranscriptBuilder } from ${builder};
const cwd = Deno.realPathSync(Deno.cwd());
const folder = Deno.env.get("CLAUDE_CONFIG_DIR") + "/projects/" + projectKey(cwd);
new TranscriptBuilder({ cwd }).prompt(${JSON.stringify(CLEAR)})
  .write(folder + "/" + crypto.randomUUID() + ".jsonl");
`,
      );
      const result = await world.run(["resume", "1"], { stdin: "" });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(shown(result), /new conversation|claudecm adopt/);
      assert.deepEqual(world.sessions().map((s) => s.guid), [main[0].guid]);
    });
  },
});

Deno.test("a /clear right before quitting a new session: no row for what it leaves, nothing named", async () => {
  await inWorldWithoutCmv(async (world) => {
    const cleared = "c1ea0000-0000-4000-8000-0000000000c1";
    // Long enough for the pid manifest to be read before and after the /clear.
    world.claudeScenario({
      steps: [{ sleepMs: 700 }, { clear: cleared, writesCommand: true }, { sleepMs: 700 }],
    });
    const result = await world.run(["new"], { stdin: "Named\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions(), []);
    assert.doesNotMatch(shown(result), /new conversation|claudecm adopt/);
  });
});

Deno.test("claudecm -c, then a /clear right before quitting: the row stays, nothing is named for adopt", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Backend" }]);
    const cleared = "c1ea0000-0000-4000-8000-0000000000c2";
    world.claudeScenario({
      steps: [
        { sleepMs: ON_WINDOWS ? 2_500 : 700 },
        { say: "more" },
        { clear: cleared, writesCommand: true },
        { sleepMs: 700 },
      ],
    });
    const result = await world.run(["-c"], { stdin: "\n\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => s.guid), [main[0].guid]);
    assert.doesNotMatch(shown(result), /new conversation|claudecm adopt/);
  });
});
