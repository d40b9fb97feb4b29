// The fake cmv is test infrastructure: it must print what cmv 2.1.1 prints
// (DESIGN.md section 4) and refuse the global --latest selector.
import assert from "node:assert/strict";
import { projectKey } from "../lib/core/project_key.ts";
import { createFakeWorld, type FakeWorld, readLines, runFake } from "./helpers/fakes.ts";

const ID = "1c3e5a77-4b76-4e5a-8d3f-2a8b9c0d1e2f";
const NEW = "2d4f6b88-5c87-4f6b-9e4a-3b9c0d1e2f3a";

async function seed(world: FakeWorld): Promise<string> {
  world.claudeScenario({ messages: ["some work"] });
  assert.equal((await runFake(world, "claude", ["--session-id", ID])).code, 0);
  return `${world.claudeRoot}/projects/${projectKey(world.project)}`;
}

Deno.test("fake cmv: benchmark --json prints pretty JSON with the fields claudecm reads", async () => {
  const world = createFakeWorld();
  try {
    await seed(world);
    world.cmvScenario({
      benchmark: { preTrimTokens: 48_000, reductionPercent: -2, breakEvenTurns: null },
    });
    const result = await runFake(world, "cmv", ["benchmark", "-s", ID, "--json"]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^\{\n {2}"/, "pretty-printed, two-space indent");
    const report = JSON.parse(result.stdout);
    assert.equal(report.preTrimTokens, 48_000);
    assert.equal(report.reductionPercent, -2);
    assert.equal(report.breakEvenTurns, null);
  } finally {
    world.cleanup();
  }
});

Deno.test("fake cmv: refuses --latest loudly and an unknown session plainly", async () => {
  const world = createFakeWorld();
  try {
    await seed(world);
    for (
      const args of [["benchmark", "--latest", "--json"], ["trim", "--latest"], [
        "snapshot",
        "x",
        "--latest",
      ]]
    ) {
      const result = await runFake(world, "cmv", args);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /--latest is forbidden/);
    }
    const missing = await runFake(world, "cmv", ["benchmark", "-s", NEW, "--json"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /not found/);
  } finally {
    world.cleanup();
  }
});

Deno.test("fake cmv: snapshot warns about a recently written session and copies it", async () => {
  const world = createFakeWorld();
  try {
    await seed(world);
    const fresh = await runFake(world, "cmv", ["snapshot", "auto-exit-1", "-s", ID]);
    assert.equal(fresh.code, 0);
    assert.match(fresh.stdout, /Session appears to be active/);
    assert.ok(Deno.statSync(`${world.home}/.cmv/snapshots/auto-exit-1/session/${ID}.jsonl`).isFile);
    world.cmvScenario({ activeWithinMs: 0 });
    const idle = await runFake(world, "cmv", ["snapshot", "auto-exit-2", "-s", ID]);
    assert.doesNotMatch(idle.stdout, /appears to be active/);
  } finally {
    world.cleanup();
  }
});

Deno.test("fake cmv: trim writes a new uuid beside the original and prints an indented Session ID line", async () => {
  const world = createFakeWorld();
  try {
    const dir = await seed(world);
    world.cmvScenario({ trimId: NEW, trimLeavesTemp: true });
    const result = await runFake(world, "cmv", ["trim", "-s", ID, "--skip-launch"]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, new RegExp(`^ {2}Session ID: ${NEW}$`, "m"));
    const lines = readLines(`${dir}/${NEW}.jsonl`);
    assert.ok(lines.every((line) => line.sessionId === undefined || line.sessionId === NEW));
    assert.ok(
      Deno.statSync(`${dir}/${ID}.jsonl`).isFile,
      "the original stays for claudecm to move",
    );
    assert.ok(Deno.statSync(`${dir}/${NEW}.jsonl.cmv-trim-tmp`).isFile);
    const index = JSON.parse(Deno.readTextFileSync(`${dir}/sessions-index.json`));
    assert.equal(index.entries.at(-1).sessionId, NEW);
    assert.deepEqual(world.argv("cmv").map((entry) => entry.argv), [[
      "trim",
      "-s",
      ID,
      "--skip-launch",
    ]]);
  } finally {
    world.cleanup();
  }
});

Deno.test("fake cmv: a scripted failure prints no Session ID line", async () => {
  const world = createFakeWorld();
  try {
    await seed(world);
    world.cmvScenario({ failCommand: "trim" });
    const result = await runFake(world, "cmv", ["trim", "-s", ID, "--skip-launch"]);
    assert.equal(result.code, 1);
    assert.doesNotMatch(result.stdout, /Session ID:/);
  } finally {
    world.cleanup();
  }
});
