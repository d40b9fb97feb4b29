import assert from "node:assert/strict";
import { UserError } from "../lib/core/errors.ts";
import { parsePrintJson, printFailure } from "../lib/platform/claude.ts";
import { detectClaudeFeatures, parseClaudeHelp } from "../lib/platform/claude_features.ts";
import { createFakeWorld, type FakeWorld, waitUntil } from "./helpers/fakes.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { createTools } from "../lib/platform/tools.ts";
import { collectDoctorReport } from "../lib/app/doctor/doctor.ts";
import { join } from "../lib/core/path.ts";
import { ON_WINDOWS } from "./helpers/portable.ts";
import { escapeRegExp } from "./helpers/portable.ts";

const HELP = Deno.readTextFileSync(new URL("../fixtures/claude-help-2.1.332.txt", import.meta.url));
const ALL = { sessionId: true, name: true, forkSession: true, noSessionPersistence: true };

function contextFor(world: FakeWorld) {
  return createTestContext({ env: world.env, cwd: world.project });
}

Deno.test("parseClaudeHelp reads option lines, not prose that mentions an option", () => {
  assert.deepEqual(parseClaudeHelp(HELP), ALL);
  assert.deepEqual(parseClaudeHelp("Options:\n  -p, --print   Use with --session-id or --name\n"), {
    sessionId: false,
    name: false,
    forkSession: false,
    noSessionPersistence: false,
  });
  assert.equal(parseClaudeHelp("  --name <name>   x\n").name, true, "--name without -n counts");
});

Deno.test("detectClaudeFeatures caches per version and reads the help once per version", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const cache = `${dir}/cm/claude-features.json`;
    let helps = 0;
    let version: string | null = "2.1.332 (Claude Code)";
    const probe = {
      version: () => Promise.resolve(version),
      help: () => Promise.resolve((helps++, HELP)),
    };
    assert.deepEqual(await detectClaudeFeatures(probe, cache), ALL);
    assert.deepEqual(await detectClaudeFeatures(probe, cache), ALL);
    assert.equal(helps, 1);
    assert.deepEqual(JSON.parse(Deno.readTextFileSync(cache)), { "2.1.332 (Claude Code)": ALL });
    version = "2.0.0 (Claude Code)";
    await detectClaudeFeatures(probe, cache);
    assert.equal(helps, 2, "a new version reads the help again");
    assert.deepEqual(Object.keys(JSON.parse(Deno.readTextFileSync(cache))), [
      "2.1.332 (Claude Code)",
      "2.0.0 (Claude Code)",
    ]);
    Deno.writeTextFileSync(cache, "{ not json");
    assert.deepEqual(await detectClaudeFeatures(probe, cache), ALL, "a corrupt cache is ignored");
    version = null;
    const before = Deno.readTextFileSync(cache);
    await detectClaudeFeatures(probe, cache);
    assert.equal(Deno.readTextFileSync(cache), before, "no version, nothing cached");
    await detectClaudeFeatures(probe, null);
    assert.equal(helps, 5, "read-only detection never uses the cache");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("claude adapter over the fake: features of an older claude without --session-id, cached under ~/.claudecm", async () => {
  const world = createFakeWorld();
  const test = contextFor(world);
  try {
    world.claudeScenario({ version: "2.0.50", helpWithout: ["--session-id"] });
    const claude = await test.ctx.tools.claude();
    assert.equal(await claude.version(), "2.0.50 (Claude Code)");
    assert.deepEqual(await claude.features(), { ...ALL, sessionId: false });
    const cached = JSON.parse(
      Deno.readTextFileSync(`${world.home}/.claudecm/claude-features.json`),
    );
    assert.deepEqual(cached["2.0.50 (Claude Code)"], { ...ALL, sessionId: false });
    let runs = world.argv("claude").length;
    await claude.features();
    assert.equal(world.argv("claude").length, runs, "same run: the version is asked once");
    const later = contextFor(world);
    try {
      runs = world.argv("claude").length;
      assert.deepEqual(await (await later.ctx.tools.claude()).features(), {
        ...ALL,
        sessionId: false,
      });
      assert.equal(world.argv("claude").length, runs + 1, "next run: --version only, no --help");
    } finally {
      later.cleanup();
    }
  } finally {
    test.cleanup();
    world.cleanup();
  }
});

Deno.test("claude adapter: print sends the prompt on stdin with -p --output-format json and parses the result", async () => {
  const world = createFakeWorld();
  const test = contextFor(world);
  try {
    world.claudeScenario({ printResult: "fresh session ready" });
    const prompt = "Read your memories.\n".repeat(2000);
    const result = await (await test.ctx.tools.claude()).print(["--dangerously-skip-permissions"], {
      cwd: world.project,
      prompt,
    });
    assert.equal(result.result, "fresh session ready");
    assert.match(result.sessionId!, /^[0-9a-f-]{36}$/);
    assert.equal(result.isError, false);
    assert.deepEqual(world.argv("claude").at(-1)!.argv, [
      "-p",
      "--output-format",
      "json",
      "--dangerously-skip-permissions",
    ]);
    world.claudeScenario({ printResult: "Not logged in", printIsError: true });
    const failed = await (await test.ctx.tools.claude()).print([], {
      cwd: world.project,
      prompt: "x",
    });
    assert.equal(failed.isError, true);
    assert.equal(failed.run.code, 1);
  } finally {
    test.cleanup();
    world.cleanup();
  }
});

Deno.test("claude adapter: launch starts the session in the given cwd and returns its pid and exit code", async () => {
  const world = createFakeWorld();
  const test = contextFor(world);
  try {
    const go = `${world.dir}/go`;
    world.claudeScenario({ steps: [{ waitForFile: go }], exitCode: 1 });
    const id = crypto.randomUUID();
    const child = (await test.ctx.tools.claude()).launch(
      ["--session-id", id, "-n", "desktop - My Project"],
      { cwd: world.project },
    );
    if (Deno.build.os !== "windows") {
      await waitUntil(() => pathExists(`${world.claudeRoot}/sessions/${child.pid}.json`));
    }
    Deno.writeTextFileSync(go, "");
    assert.equal(await child.status, 1);
    const run = world.argv("claude").at(-1)!;
    assert.deepEqual(run.argv, ["--session-id", id, "-n", "desktop - My Project"]);
    assert.equal(run.cwd, world.project);
  } finally {
    test.cleanup();
    world.cleanup();
  }
});

Deno.test("tools: a missing claude is a UserError naming the npm package; CLAUDECM_CLAUDE must name a file", async () => {
  const test = createTestContext({ env: { PATH: "" } });
  try {
    await assert.rejects(
      () => test.ctx.tools.claude(),
      (error: unknown) =>
        error instanceof UserError &&
        error.message.includes(".local") &&
        error.message.endsWith("install it with: npm install -g @anthropic-ai/claude-code"),
    );
    const bad = createTestContext({ env: { PATH: "", CLAUDECM_CLAUDE: "/nowhere/claude" } });
    await assert.rejects(
      () => bad.ctx.tools.claude(),
      /CLAUDECM_CLAUDE is set to \/nowhere\/claude, which is not an executable file/,
    );
    bad.cleanup();
  } finally {
    test.cleanup();
  }
});

Deno.test("parsePrintJson takes the result object, tolerating noise around it", () => {
  const line = JSON.stringify({
    type: "result",
    is_error: true,
    result: "Not logged in",
    session_id: "abc",
  });
  assert.deepEqual(parsePrintJson(`warning: something\n${line}\n`), {
    sessionId: "abc",
    result: "Not logged in",
    isError: true,
  });
  assert.equal(parsePrintJson("not json"), null);
  assert.equal(parsePrintJson('{"type":"system"}'), null);
});

Deno.test("tools: claude and cmv are found on PATH when no override is set", async () => {
  const world = createFakeWorld();
  const bin = world.claudePath.replace(/[\\/][^\\/]*$/, "");
  const separator = Deno.build.os === "windows" ? ";" : ":";
  const env = {
    ...world.env,
    CLAUDECM_CLAUDE: "",
    CLAUDECM_CMV: "",
    PATH: `${bin}${separator}${world.env.PATH}`,
  };
  const test = createTestContext({ env, cwd: world.project });
  try {
    const claude = await test.ctx.tools.claude();
    assert.equal(claude.path, world.claudePath);
    assert.equal(await claude.version(), "2.1.332 (Claude Code)");
    const cmv = await test.ctx.tools.cmv();
    assert.equal(cmv.available && cmv.path, world.cmvPath);
  } finally {
    test.cleanup();
    world.cleanup();
  }
});

/** Whether process `pid` is gone (POSIX; on Windows via tasklist). */
function processGone(pid: number): boolean {
  if (Deno.build.os === "windows") {
    const out = new Deno.Command("tasklist", { args: ["/FI", `PID eq ${pid}`, "/NH"] })
      .outputSync();
    return !new TextDecoder().decode(out.stdout).includes(String(pid));
  }
  return !new Deno.Command("kill", { args: ["-0", String(pid)], stderr: "null" }).outputSync()
    .success;
}

Deno.test("a claude whose --version never returns: its whole tree is killed, 'timed out' reported", async () => {
  const world = createFakeWorld();
  const pidFile = join(world.dir, "grandchild.pid");
  // The grandchild holds the pipe far longer than the probe's timeout. On Windows the fake
  // starts through cmd.exe and takes longer: a shorter timeout would end it before it spoke.
  const timeoutMs = ON_WINDOWS ? 5_000 : 500;
  world.claudeScenario({ hangVersion: { pidFile, holdMs: 30_000 } });
  const test = createTestContext({ env: world.env, cwd: world.project });
  const tools = createTools({
    env: test.ctx.env,
    childEnv: () => ({ ...test.env }),
    cwd: test.ctx.cwd,
    os: Deno.build.os,
    paths: test.ctx.paths,
    probeTimeoutMs: timeoutMs,
  });
  const timedOut = new RegExp(escapeRegExp(`--version\` timed out after ${timeoutMs / 1000} s`));
  try {
    await assert.rejects(
      async () => (await tools.claude()).features(),
      (error: unknown) => error instanceof UserError && timedOut.test(error.message),
    );
    await waitUntil(() => processGone(Number(Deno.readTextFileSync(pidFile))), 3_000);
    const report = await collectDoctorReport({ ...test.ctx, tools });
    const problem = report.findings.find((f) => f.section === "claude")!.message;
    assert.match(problem, timedOut);
    assert.doesNotMatch(problem, /failed/);
    assert.equal(report.ok, false);
  } finally {
    test.cleanup();
    world.cleanup();
  }
});

Deno.test("printFailure says why a claude -p run failed: its answer's error, its exit, or no answer", () => {
  const run = { code: 0, stdout: "", stderr: "", timedOut: false };
  const answer = { sessionId: null, result: null, isError: true, answerIsError: false, run };
  assert.equal(
    printFailure({
      ...answer,
      answerIsError: true,
      result: "API Error: 529",
      run: { ...run, code: 1 },
    }),
    "API Error: 529",
  );
  assert.equal(
    printFailure({ ...answer, result: "Done.", run: { ...run, code: 2 } }),
    "claude exited with code 2",
  );
  assert.equal(
    printFailure({ ...answer, run: { ...run, code: 1, stderr: "error: bad flag\nmore" } }),
    "error: bad flag",
  );
  assert.equal(printFailure(answer), "claude gave no answer it could read");
  // One line, whatever claude printed (Windows ends its lines with CR LF).
  assert.equal(
    printFailure({ ...answer, answerIsError: true, result: "\nAPI Error: 500\r\nretry later" }),
    "API Error: 500",
  );
});
