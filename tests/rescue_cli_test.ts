import assert from "node:assert/strict";
import { join } from "node:path";
import { buildRescueWorld, DEAD_SLUG } from "../fixtures/rescue/world.ts";
import { projectDirFor, resolvePaths } from "../lib/core/paths.ts";
import { createFakeWorld } from "./helpers/fakes.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { treeState } from "./helpers/tree_state.ts";

/** A fake world (temp HOME, fake claude) with the rescue fixtures in it, dated from now. */
function rescueWorld() {
  const fake = createFakeWorld();
  const w = buildRescueWorld(fake.home, new Date());
  return { fake, w, env: fake.env };
}

Deno.test("rescue --dry-run --all writes nothing anywhere: HOME and the workspace unchanged", async () => {
  const { fake, w, env } = rescueWorld();
  try {
    const before = treeState(fake.dir);
    const run = await runClaudecm(["rescue", "--dry-run", "--all"], { env, cwd: w.workspace });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Session Recovery \(dry run: nothing written\)/);
    assert.match(
      run.stdout,
      new RegExp(
        `Thread would be saved: workspace/threads/T-\\d{8}-\\d{6}-recovered-${DEAD_SLUG}\\.json`,
      ),
    );
    assert.deepEqual(treeState(fake.dir), before);
    // No claudecm bootstrap either: no ~/.claudecm, no settings edit, no backups.
    assert.throws(() => Deno.statSync(join(fake.home, ".claudecm")), Deno.errors.NotFound);
  } finally {
    fake.cleanup();
  }
});

Deno.test("rescue --all --json --workspace writes threads once; the rerun skips them", async () => {
  const { fake, w, env } = rescueWorld();
  try {
    const args = ["rescue", "--all", "--json", "--workspace", "HQ"];
    const run = await runClaudecm(args, { env, cwd: fake.home });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.workspace, w.workspace);
    assert.deepEqual(report.recovered.map((r: { sessionId: string }) => r.sessionId), [
      w.ids.dead,
      w.ids.compactionError,
    ]);
    for (const file of report.files) assert.ok(Deno.statSync(file.path).isFile, file.path);
    const thread = JSON.parse(
      Deno.readTextFileSync(join(w.threadsDir, `${report.recovered[0].threadId}.json`)),
    );
    assert.deepEqual(thread, report.recovered[0].thread);
    assert.throws(() => Deno.statSync(join(fake.home, ".claudecm")), Deno.errors.NotFound);

    const before = treeState(fake.dir);
    const again = await runClaudecm(args, { env, cwd: fake.home });
    const second = JSON.parse(again.stdout);
    assert.deepEqual(second.recovered, []);
    assert.deepEqual(
      second.alreadyRecovered.sort(),
      [
        w.ids.dead,
        w.ids.compactionError,
        w.ids.recovered,
      ].sort(),
    );
    assert.deepEqual(treeState(fake.dir), before);
  } finally {
    fake.cleanup();
  }
});

Deno.test("rescue --session takes an id typed in upper case as the same session", async () => {
  const { fake, w, env } = rescueWorld();
  try {
    const args = ["rescue", "--dry-run", "--json", "--session", w.ids.dead.toUpperCase()];
    const run = await runClaudecm(args, { env, cwd: w.workspace });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      JSON.parse(run.stdout).recovered.map((r: { sessionId: string }) => r.sessionId),
      [w.ids.dead],
    );
  } finally {
    fake.cleanup();
  }
});

Deno.test("rescue --summarize runs claude -p --no-session-persistence and uses its answer", async () => {
  const { fake, w, env } = rescueWorld();
  try {
    fake.claudeScenario({ printResult: "Added OAuth login; died pasting the test output." });
    const args = ["rescue", "--session", w.ids.dead, "--summarize", "--json"];
    const projects = join(fake.claudeRoot, "projects");
    const before = treeState(projects);
    const run = await runClaudecm(args, { env, cwd: w.workspace });
    assert.equal(run.code, 0, run.stderr);
    const [item] = JSON.parse(run.stdout).recovered;
    assert.equal(item.summarySource, "claude");
    assert.equal(item.thread.summary, "Added OAuth login; died pasting the test output.");
    const [call] = fake.argv("claude");
    assert.deepEqual(call.argv, ["-p", "--output-format", "json", "--no-session-persistence"]);
    assert.equal(call.cwd, w.workspace);
    // The summary run left no transcript behind.
    assert.deepEqual(treeState(projects), before);
  } finally {
    fake.cleanup();
  }
});

Deno.test("rescue --summarize falls back to the mechanical summary when claude fails", async () => {
  const { fake, w, env } = rescueWorld();
  try {
    fake.claudeScenario({ printIsError: true, printResult: "API Error: overloaded" });
    const run = await runClaudecm(["rescue", "--session", w.ids.dead, "--summarize"], {
      env,
      cwd: w.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Summary: {2}Set out to: \/feature add OAuth login/);
    assert.match(
      run.stdout,
      /Note: {5}claude summary not used: claude failed: API Error: overloaded/,
    );
  } finally {
    fake.cleanup();
  }
});

Deno.test("rescue: bad options and ids are one-line errors with the documented codes", async () => {
  const { fake, w, env } = rescueWorld();
  try {
    const cases: [string[], number, RegExp][] = [
      [
        ["rescue", "--session", "nope"],
        3,
        /^claudecm: not a session id \(expected a UUID\): nope\n$/,
      ],
      [
        ["rescue", "--session", "00000000-0000-4000-8000-000000000000"],
        3,
        /^claudecm: no transcript for session 0{8}-/,
      ],
      [["rescue", "--session", w.ids.compacted], 1, /did not die of context overflow/],
      [["rescue", "--workspace", "no/such/dir"], 1, /^claudecm: workspace folder not found: /],
      [["rescue", "--days", "0"], 2, /--days takes a positive whole number/],
    ];
    for (const [args, code, message] of cases) {
      const run = await runClaudecm(args, { env, cwd: w.workspace });
      assert.equal(run.code, code, args.join(" "));
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /\bat \S+:\d+/);
    }
  } finally {
    fake.cleanup();
  }
});

Deno.test("rescue: empty, truncated, non-UTF-8 and huge single-line transcripts never crash it", async () => {
  const { fake, w, env } = rescueWorld();
  try {
    const paths = resolvePaths((n) => env[n], Deno.build.os);
    const dir = projectDirFor(paths, join(fake.home, "junk"));
    Deno.mkdirSync(dir, { recursive: true });
    const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    Deno.writeTextFileSync(join(dir, `${id(1)}.jsonl`), "");
    Deno.writeTextFileSync(
      join(dir, `${id(2)}.jsonl`),
      '{"type":"assistant","isApiErrorMes'.repeat(900),
    );
    Deno.writeFileSync(join(dir, `${id(3)}.jsonl`), new Uint8Array(40_000).fill(0xff));
    Deno.writeTextFileSync(
      join(dir, `${id(4)}.jsonl`),
      `{"type":"user","x":"${"y".repeat(6_000_000)}"}`,
    );
    const run = await runClaudecm(["rescue", "--json"], { env, cwd: w.workspace });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(report.dead.map((d: { id: string }) => d.id), [
      w.ids.dead,
      w.ids.compactionError,
    ]);
    assert.deepEqual(report.skipped.map((s: { path: string }) => s.path), [
      join(dir, `${id(4)}.jsonl`),
    ]);
    assert.match(report.skipped[0].reason, /no complete line in the last 4\.0 MB/);
    const text = await runClaudecm(["rescue"], { env, cwd: w.workspace });
    assert.equal(text.code, 0);
    assert.match(
      text.stderr,
      /skipped .*00000000-0000-4000-8000-000000000004\.jsonl: no complete line/,
    );
    const one = await runClaudecm(["rescue", "--session", id(1)], { env, cwd: w.workspace });
    assert.equal(one.code, 1);
    assert.match(one.stderr, /did not die of context overflow/);
  } finally {
    fake.cleanup();
  }
});
