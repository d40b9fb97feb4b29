/**
 * A one-shot `claude -p` call is not a session: `new -- -p` registers none,
 * and a `-p` transcript in a folder neither stops a later `new` at the
 * orphan table nor is offered by adopt, unless the user names it (issue 31
 * defect 14). One rule: lib/transcript/session_facts.ts `isPrintCall`.
 */

import assert from "node:assert/strict";
import { inWorldWithoutCmv, PROJECT_KEY_IMPORT, useClaudeScript } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";

/** What a person reads of a run: claudecm's lines are on stderr when stdout is a pipe. */
function shown(result: { stdout: string; stderr: string }): string {
  return result.stdout + result.stderr;
}

Deno.test("new -- -p registers nothing; its transcript stops no later new and adopt skips it", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Backend" }]);
    world.claudeScenario({ printResult: "forty-two" });
    const printed = await world.run(["new", "--", "-p", "what is the answer"], { stdin: "" });
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(printed.stdout, "forty-two\n");
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Backend"]);
    const [call] = world.launches();
    assert.ok(!call.argv.includes("-n"), "a print call is given no session name");
    world.claudeScenario({ messages: ["carry on"] });
    const resumed = await world.run(["new"], { stdin: "\n\n" });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.doesNotMatch(shown(resumed), /Multiple conversation files found/);
    assert.deepEqual(world.launches()[1].argv.slice(1, 3), ["--resume", main[0].guid]);
    const adopt = await world.run(["adopt", "--dry-run", "--json"], { stdin: "" });
    assert.deepEqual(JSON.parse(adopt.stdout).candidates, []);
  });
});

Deno.test("a -p call the user names (new -- --resume ID) is a session after all", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ printResult: "ok" });
    const printed = await world.run(
      ["new", "--", "-p", "--output-format", "json", "hello"],
      { stdin: "" },
    );
    const id = JSON.parse(printed.stdout).session_id;
    assert.deepEqual(world.sessions(), []);
    world.claudeScenario({ messages: ["go on by hand"] });
    const resumed = await world.run(["new", "--", "--resume", id], { stdin: "\n" });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(world.sessions().map((s) => s.guid), [id]);
  });
});

Deno.test({
  name: "another window's -p answer written while a resume runs is no fork and no new conversation",
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
new TranscriptBuilder({ cwd, entrypoint: "sdk-cli" })
  .prompt("one answer", { promptSource: "sdk" }).text("ok")
  .write(folder + "/" + crypto.randomUUID() + ".jsonl");
`,
      );
      const result = await world.run(["resume", "1"], { stdin: "" });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(shown(result), /new conversation|Multiple conversation files/);
      assert.deepEqual(world.sessions().map((s) => s.guid), [main[0].guid]);
    });
  },
});
