import assert from "node:assert/strict";
import { createCmvAdapter, parseBenchmark, parseTrimOutput } from "../lib/platform/cmv.ts";
import { createFakeWorld, type FakeWorld, runFake } from "./helpers/fakes.ts";
import { createTestContext } from "./helpers/test_context.ts";

const ID = "4f6b8daa-7ea9-4b8d-9a6c-5d1e2f3a4b5c";
const NEW = "5a7c9ebb-8fba-4c9e-8b7d-6e2f3a4b5c6d";

async function seeded(): Promise<FakeWorld> {
  const world = createFakeWorld();
  world.claudeScenario({ messages: ["work"] });
  assert.equal((await runFake(world, "claude", ["--session-id", ID])).code, 0);
  return world;
}

Deno.test("parseBenchmark reads the three figures, null breakEvenTurns included", () => {
  const report = {
    preTrimTokens: 1200,
    reductionPercent: -3,
    breakEvenTurns: null,
    model: "sonnet",
  };
  assert.deepEqual(parseBenchmark(JSON.stringify(report, null, 2)), {
    preTrimTokens: 1200,
    reductionPercent: -3,
    breakEvenTurns: null,
    report,
  });
  assert.equal(parseBenchmark("ℹ Analyzing session...\n"), null);
  assert.equal(parseBenchmark('{"preTrimTokens": "many"}'), null);
  // More than the whole session is no reading of it.
  assert.equal(
    parseBenchmark('{"preTrimTokens": 1, "reductionPercent": 1e300, "breakEvenTurns": null}'),
    null,
  );
  assert.equal(
    parseBenchmark('{"preTrimTokens": 1, "reductionPercent": 2, "breakEvenTurns": "x"}'),
    null,
  );
  // Figures that are no amount: the tokens would go into sessions.txt, the rest on screen.
  for (
    const odd of [
      '{"preTrimTokens": -5, "reductionPercent": 2, "breakEvenTurns": 1}',
      '{"preTrimTokens": 1e21, "reductionPercent": 2, "breakEvenTurns": 1}',
      '{"preTrimTokens": 1e999, "reductionPercent": 2, "breakEvenTurns": 1}',
      '{"preTrimTokens": 5, "reductionPercent": 1e999, "breakEvenTurns": 1}',
      '{"preTrimTokens": 5, "reductionPercent": 2, "breakEvenTurns": -1e999}',
    ]
  ) assert.equal(parseBenchmark(odd), null, odd);
  assert.equal(
    parseBenchmark('{"preTrimTokens": 1200.4, "reductionPercent": 2, "breakEvenTurns": 2.5}')
      ?.preTrimTokens,
    1200.4,
  );
});

Deno.test("parseTrimOutput finds the indented Session ID line and keeps the rest for display", () => {
  const out =
    `\x1b[34mℹ\x1b[39m Creating trimmed branch...\n  Session ID: ${NEW.toUpperCase()}\n\n  Reduction:  4%\n`;
  assert.deepEqual(parseTrimOutput(out), {
    newSessionId: NEW,
    namedIds: [NEW],
    lines: ["ℹ Creating trimmed branch...", "  Reduction:  4%"],
  });
  assert.equal(parseTrimOutput("  Session ID: not-a-uuid\n").newSessionId, null);
  // Two copies named: which one is the trim is not known, so neither is taken.
  const two = `  Session ID: ${NEW}\n  Session ID: ${NEW.replace(/^./, "0")}\n`;
  const second = NEW.replace(/^./, "0");
  assert.deepEqual(parseTrimOutput(two), {
    newSessionId: null,
    namedIds: [NEW, second],
    lines: [`Session ID: ${NEW}`, `Session ID: ${second}`],
  }, "both are shown");
  assert.equal(parseTrimOutput(`  Session ID: ${NEW}\n  Session ID: ${NEW}\n`).newSessionId, NEW);
  assert.equal(parseTrimOutput("✗ failed\n").newSessionId, null);
});

Deno.test("cmv adapter over the fake: benchmark, trim, background snapshot, always with -s ID", async () => {
  const world = await seeded();
  const test = createTestContext({ env: world.env, cwd: world.project });
  try {
    world.cmvScenario({
      benchmark: { preTrimTokens: 90_000, reductionPercent: 12, breakEvenTurns: 4 },
      trimId: NEW,
    });
    const cmv = await test.ctx.tools.cmv();
    assert.ok(cmv.available);
    assert.equal(await cmv.version({ cwd: world.project }), "2.1.1");
    const bench = await cmv.benchmark(ID, { cwd: world.project });
    assert.ok(bench.ok);
    assert.equal(bench.benchmark.preTrimTokens, 90_000);
    assert.equal(bench.benchmark.breakEvenTurns, 4);
    const trim = await cmv.trim(ID, { cwd: world.project });
    assert.equal(trim.newSessionId, NEW);
    const snapshot = cmv.snapshot("auto-exit-20261130-120000", ID, { cwd: world.project });
    const done = await snapshot.result;
    assert.equal(done.run.code, 0);
    assert.equal(done.activeWarning, true, "the transcript was written a moment ago");
    assert.deepEqual(world.argv("cmv").map((entry) => entry.argv), [
      ["--version"],
      ["benchmark", "-s", ID, "--json"],
      ["trim", "-s", ID, "--skip-launch"],
      ["snapshot", "auto-exit-20261130-120000", "-s", ID],
    ]);
    await assert.rejects(() => cmv.benchmark("", { cwd: world.project }), /cmv needs a session id/);
    world.cmvScenario({ failCommand: "benchmark" });
    assert.equal((await cmv.benchmark(ID, { cwd: world.project })).ok, false);
  } finally {
    test.cleanup();
    world.cleanup();
  }
});

Deno.test("tools: a missing cmv is an absent adapter with one notice, not an error", async () => {
  const test = createTestContext({ env: { PATH: "" } });
  try {
    const cmv = await test.ctx.tools.cmv();
    assert.equal(cmv.available, false);
    if (!cmv.available) {
      assert.match(cmv.notice, /^cmv not found on PATH or at .*(\.npm-global|AppData)/);
      assert.match(cmv.notice, /skipping snapshots, trim, refresh and token counts/);
      assert.ok(!cmv.notice.includes("\n"));
    }
    assert.equal(await test.ctx.tools.cmv(), cmv, "found once per run");
  } finally {
    test.cleanup();
  }
});

Deno.test({
  name: "a cmv benchmark that hangs is stopped at its timeout and counts as failed",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = Deno.makeTempDirSync();
    try {
      const hung = `${dir}/cmv`;
      Deno.writeTextFileSync(hung, "#!/bin/sh\nexec sleep 30\n");
      Deno.chmodSync(hung, 0o755);
      const cmv = createCmvAdapter(hung, {
        env: () => ({ PATH: "/usr/bin:/bin" }),
        os: "linux",
        benchmarkTimeoutMs: 300,
      });
      const started = Date.now();
      // No timeout asked for: the adapter's own applies (post-exit and refresh give none).
      const outcome = await cmv.benchmark(ID, { cwd: dir });
      assert.equal(outcome.ok, false);
      assert.equal(outcome.run.timedOut, true);
      assert.ok(Date.now() - started < 10_000, "not waited out");
      // A snapshot holds the end of a session too: it is stopped the same way.
      const snapshot = await cmv.snapshot("auto-exit", ID, { cwd: dir, timeoutMs: 300 }).result;
      assert.equal(snapshot.run.timedOut, true);
      assert.ok(Date.now() - started < 20_000, "not waited out");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
