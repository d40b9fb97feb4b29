import assert from "node:assert/strict";
import { runClaudecm } from "./helpers/run_cli.ts";
import { sessionId, writeRegistryText, writeTranscript } from "./helpers/claude_home.ts";
import { createFakeWorld, type FakeWorld } from "./helpers/fakes.ts";
import { resolvePaths } from "../lib/core/paths.ts";
import { treeState } from "./helpers/tree_state.ts";

/** A fake world whose state is healthy: protected settings, one session with its transcript. */
function healthyWorld(): FakeWorld {
  const world = createFakeWorld();
  const paths = resolvePaths((name) => world.env[name], Deno.build.os);
  const guid = sessionId(1);
  writeTranscript(paths, world.project, guid);
  writeRegistryText(paths, `${guid}|${world.project}|My App|\n`);
  Deno.writeTextFileSync(paths.settingsFile, '{"cleanupPeriodDays": 100000}');
  return world;
}

Deno.test("claudecm doctor: exit 0 when healthy, 1 with a problem; --json parses; nothing written", async () => {
  const world = healthyWorld();
  try {
    const before = treeState(world.home);
    const ok = await runClaudecm(["doctor"], { env: world.env, cwd: world.project });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /^ {2}claude +ok +2\.1\.332 \(Claude Code\)/m);
    assert.match(ok.stdout, /All checks ok\./);
    assert.equal(ok.stderr, "");

    const json = await runClaudecm(["doctor", "--json"], { env: world.env, cwd: world.project });
    assert.equal(json.code, 0);
    const report = JSON.parse(json.stdout);
    assert.deepEqual([report.ok, report.problems, report.claude.version], [
      true,
      [],
      "2.1.332 (Claude Code)",
    ]);
    assert.deepEqual(treeState(world.home), before, "doctor wrote nothing under HOME");

    // No claude anywhere: a problem, reported, exit 1, no stack trace.
    const env = { ...world.env, CLAUDECM_CLAUDE: "", PATH: "" };
    const missing = await runClaudecm(["doctor", "--json"], { env, cwd: world.project });
    assert.equal(missing.code, 1, missing.stderr);
    const broken = JSON.parse(missing.stdout);
    assert.equal(broken.claude.found, false);
    assert.match(broken.problems[0], /^claude: claude \(Claude Code\) not found on PATH/);
    assert.equal(missing.stderr, "");
    assert.deepEqual(treeState(world.home), before);
  } finally {
    world.cleanup();
  }
});

Deno.test("claudecm doctor --help documents what counts as a problem and the exit codes", async () => {
  const help = await runClaudecm(["doctor", "--help"], { env: {} });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: claudecm doctor \[options\]/);
  assert.match(help.stdout, /--json/);
  assert.match(help.stdout, /Problems: claude missing or broken/);
  assert.match(
    help.stdout,
    /Exit codes: 0 no problems \(warnings allowed\), 1 at least one problem/,
  );
  const top = await runClaudecm(["--help"], { env: {} });
  assert.match(top.stdout, /doctor \[options\] +check claude, cmv/);
});

Deno.test("claudecm doctor on a fresh HOME reports, exits 1 and creates nothing", async () => {
  const world = createFakeWorld();
  try {
    const result = await runClaudecm(["doctor"], { env: world.env, cwd: world.project });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /^ {2}settings +problem +no settings\.json$/m);
    assert.match(result.stdout, /sessions\.txt not created yet/);
    assert.deepEqual([...Deno.readDirSync(world.home)], [], "no ~/.claudecm, no ~/.claude");
  } finally {
    world.cleanup();
  }
});
