/**
 * A refresh can be abandoned (DESIGN.md 5.14): an editor that fails, a
 * `claude -p` that times out or fails, and Ctrl-C while it works all leave
 * the registry byte for byte as it was, print no "Done.", and leave no
 * transcript of the `-p` session behind (it would show up as an orphan).
 * Refresh is offered only when cmv counted a long session (spec 12).
 */

import assert from "node:assert/strict";
import { refreshSession } from "../lib/app/refresh/refresh.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { fakeToolPath, waitUntil } from "./helpers/fakes.ts";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { claudecmCommand } from "./helpers/run_cli.ts";
import { registryBytes, seedSessions } from "./helpers/seed.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { collectOutput } from "./helpers/child.ts";

const SETTINGS = { machineName: "desk", permissionArgs: ["--dangerously-skip-permissions"] };
const LONG_SESSION = { benchmark: { preTrimTokens: 80_000 } };

/** The transcripts in the project folder of `dir`. */
function transcriptsIn(world: LaunchWorld, dir = world.project): string[] {
  try {
    return [...Deno.readDirSync(projectDirFor(world.paths, dir))]
      .map((entry) => entry.name).filter((name) => name.endsWith(".jsonl")).sort();
  } catch {
    return [];
  }
}

async function refreshIn(
  world: LaunchWorld,
  options: { answers: string[]; env?: Record<string, string>; timeoutMs?: number },
) {
  const { main } = seedSessions(world, [{ desc: "Parser work" }]);
  const test = createTestContext({
    env: { ...world.env, ...options.env },
    cwd: world.project,
    answers: options.answers,
    now: new Date(),
  });
  try {
    const before = registryBytes(world);
    const fresh = await refreshSession(test.ctx, SETTINGS, {
      guid: main[0].guid,
      timeoutMs: options.timeoutMs,
    });
    return { fresh, before, test, guid: main[0].guid };
  } finally {
    test.cleanup();
  }
}

Deno.test("an editor that exits non-zero (:cq) cancels the refresh; claude -p never runs", async () => {
  const world = createLaunchWorld();
  try {
    const run = await refreshIn(world, {
      answers: ["", "y"],
      env: { EDITOR: fakeToolPath("editor"), FAKE_EDITOR_EXIT: "1" },
    });
    assert.equal(run.fresh, null);
    assert.deepEqual(registryBytes(world), run.before);
    assert.match(run.test.stderr(), /editor exited with code 1: refresh cancelled/);
    assert.ok(!world.argv("claude").some((e) => e.argv.includes("-p")));
  } finally {
    world.cleanup();
  }
});

Deno.test("a claude -p that times out is ended; no Done., no transcript of its own left", async () => {
  const world = createLaunchWorld();
  try {
    world.claudeScenario({ printHangMs: 20_000 });
    const run = await refreshIn(world, { answers: ["", "n"], timeoutMs: 500 });
    assert.equal(run.fresh, null);
    assert.deepEqual(registryBytes(world), run.before);
    assert.doesNotMatch(run.test.stdout(), /Done\./);
    assert.match(run.test.stderr(), /did not answer within/);
    assert.deepEqual(transcriptsIn(world), [`${run.guid}.jsonl`]);
  } finally {
    world.cleanup();
  }
});

Deno.test("a failed claude -p leaves no transcript of its own behind", async () => {
  const world = createLaunchWorld();
  try {
    world.claudeScenario({ printIsError: true, printResult: "Not logged in" });
    const run = await refreshIn(world, { answers: ["", "n"] });
    assert.equal(run.fresh, null);
    assert.deepEqual(registryBytes(world), run.before);
    assert.doesNotMatch(run.test.stdout(), /Done\./);
    assert.deepEqual(transcriptsIn(world), [`${run.guid}.jsonl`]);
  } finally {
    world.cleanup();
  }
});

const CANCELLING = [
  { signal: "SIGINT", code: 130, what: "Ctrl-C" },
  { signal: "SIGHUP", code: 129, what: "a closed terminal (SIGHUP)" },
  { signal: "SIGTERM", code: 143, what: "a SIGTERM" },
] as const;

for (const { signal, code, what } of CANCELLING) {
  Deno.test({
    name:
      `${what} while claude -p works cancels the refresh: exit ${code}, registry and folder as before`,
    ignore: Deno.build.os === "windows",
    fn: async () => {
      const world = createLaunchWorld();
      try {
        const { main } = seedSessions(world, [{ desc: "Parser work" }]);
        world.claudeScenario({ messages: ["more"], printHangMs: 30_000 });
        world.cmvScenario(LONG_SESSION);
        const child = claudecmCommand(["1"], { env: world.env, cwd: world.project }).spawn();
        // Refresh? y; name: Enter; edit the prompt? n.
        const output = collectOutput(child, "y\n\nn\n");
        await waitUntil(() => transcriptsIn(world).length === 2, 20_000);
        const afterExit = registryBytes(world);
        Deno.kill(child.pid, signal);
        const result = await output;
        assert.equal(result.code, code, result.stdout + result.stderr);
        // What cancelled it, as it was: never "Ctrl-C" for a SIGTERM.
        const by = signal === "SIGINT" ? "Ctrl-C" : signal;
        assert.match(result.stderr, new RegExp(`cancelled \\(${by}\\)`));
        assert.doesNotMatch(result.stdout, /^ {2}Done\./m);
        assert.deepEqual(registryBytes(world), afterExit);
        assert.deepEqual(transcriptsIn(world), [`${main[0].guid}.jsonl`]);
      } finally {
        world.cleanup();
      }
    },
  });
}

Deno.test("refresh is not offered without cmv, nor for a short session", async () => {
  const world = createLaunchWorld();
  try {
    seedSessions(world, [{ desc: "Parser work" }]);
    world.claudeScenario({ messages: ["more"] });
    const short = await world.run(["1"], { stdin: "" });
    assert.equal(short.code, 0, short.stderr);
    assert.doesNotMatch(short.stderr, /compacted session/);
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const noCmv = await world.run(["1"], { stdin: "" });
    assert.match(
      noCmv.stderr,
      /cmv not found, so snapshots, trim, refresh and token counts are skipped/,
    );
    assert.doesNotMatch(noCmv.stderr, /compacted session/);
  } finally {
    world.cleanup();
  }
});
