import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import {
  createLaunchWorld,
  inWorldWithoutCmv,
  PROJECT_KEY_IMPORT,
  useClaudeScript,
} from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { treeState } from "./helpers/tree_state.ts";
import { makeTempDirOnOtherFileSystem, otherFileSystemAvailable } from "./helpers/other_fs.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { claudecmCommand } from "./helpers/run_cli.ts";
import { collectOutput } from "./helpers/child.ts";
import { transcriptPathFor } from "../lib/core/paths.ts";
import { isSessionLive, liveSessionIds } from "../lib/platform/live_sessions.ts";
import { NAME_QUOTE, ON_WINDOWS } from "./helpers/portable.ts";

/** A session started with `claudecm n` and named `desc`: its row. */
async function registerOne(world: ReturnType<typeof createLaunchWorld>, desc: string) {
  world.claudeScenario({ messages: ["first"] });
  world.cmvScenario(QUIET_CMV);
  assert.equal((await world.run(["n"], { stdin: `${desc}\n` })).code, 0);
  return world.sessions()[0];
}

/** Run claude through a shell script that does not exec it, as claude.cmd runs it on Windows. */
function useNonExecShim(world: ReturnType<typeof createLaunchWorld>): void {
  const shim = join(world.dir, "claude-shim");
  Deno.writeTextFileSync(shim, `#!/bin/sh\n"${world.env.CLAUDECM_CLAUDE}" "$@"\n`);
  Deno.chmodSync(shim, 0o755);
  world.env.CLAUDECM_CLAUDE = shim;
}

const QUIET_CMV = {
  benchmark: { preTrimTokens: 12_345, reductionPercent: 3, breakEvenTurns: 151 },
};

for (const exitCode of [0, 1, 130]) {
  Deno.test(`a fresh session is registered when claude exits ${exitCode}`, async () => {
    const world = createLaunchWorld();
    try {
      world.claudeScenario({ messages: ["hello"], exitCode });
      world.cmvScenario(QUIET_CMV);
      const result = await world.run(["n"], { stdin: "My Project\n" });
      assert.equal(result.code, exitCode, result.stderr);
      const [id] = world.sessionIdsPassed();
      assert.deepEqual(world.sessions().map((s) => [s.guid, s.dir, s.desc]), [
        [id, world.project, "My Project"],
      ]);
      const [launch] = world.launches();
      assert.deepEqual(launch.argv.slice(0, 5), [
        "--dangerously-skip-permissions",
        "--session-id",
        id,
        "-n",
        "desk - My Project",
      ]);
      if (exitCode === 0) {
        assert.equal(world.sessions()[0].tokens, "12345");
        assert.match(result.stderr, /Saving snapshot\.\.\. Done\./);
        assert.match(result.stderr, /Trim not offered: it would recover 3%/);
      } else {
        assert.match(result.stderr, new RegExp(`claude exited with code ${exitCode}`));
      }
    } finally {
      world.cleanup();
    }
  });
}

Deno.test("no session is registered when the user leaves before the first message", async () => {
  const world = createLaunchWorld();
  try {
    world.claudeScenario({ messages: [] });
    const result = await world.run(["n"], { stdin: "Named\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions(), []);
    assert.match(result.stderr, /No session was saved/);
    assert.equal(world.argv("cmv").length, 0);
  } finally {
    world.cleanup();
  }
});

Deno.test("a /clear before the first message: the row follows the session claude went on with", async () => {
  const world = createLaunchWorld();
  try {
    const cleared = sessionId(0xc1);
    // Long enough for the pid manifest to be read before and after the /clear, as in any real
    // session (through a shim, claude's manifest is first found by the id it starts on).
    world.claudeScenario({
      steps: [{ sleepMs: 700 }, { clear: cleared }, { sleepMs: 700 }, { say: "after the clear" }],
    });
    world.cmvScenario(QUIET_CMV);
    const result = await world.run(["n"], { stdin: "Named\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /No session was saved/);
    assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc]), [[cleared, "Named"]]);
  } finally {
    world.cleanup();
  }
});

Deno.test("claudecm -c into a registered session asks no name, and 'skip' cannot drop its row", async () => {
  const world = createLaunchWorld();
  try {
    const row = await registerOne(world, "Important work");
    // Long enough for the pid manifest to be read, as it is for any real session.
    world.claudeScenario({ steps: [{ sleepMs: 700 }, { say: "more" }] });
    const result = await world.run(["-c"], { stdin: "skip\nskip\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Describe this session/);
    assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc]), [[row.guid, "Important work"]]);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name:
    "claudecm -c through a shim that does not exec: the continued session is seen, not 'nothing saved'",
  // A shell script stands for claude.cmd, which runs claude as a grandchild.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const row = await registerOne(world, "Important work");
      useNonExecShim(world);
      // Long enough for the pid manifest to be read, as it is for any real session.
      world.claudeScenario({ steps: [{ sleepMs: 700 }, { say: "more" }, { sleepMs: 300 }] });
      const result = await world.run(["-c"], { stdin: "\n\n" });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stdout, /No session was saved/);
      assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc]), [[
        row.guid,
        "Important work",
      ]]);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test("claudecm -c that claude continues as a fork: the row follows, the predecessor is set aside", async () => {
  await inWorldWithoutCmv(async (world) => {
    const fork = "f0f0f0f0-0000-4000-8000-00000000f0f0";
    const { main } = seedSessions(world, [{ desc: "Registered work" }]);
    // Older claudes continued a session in a fork: a new id, the history carried forward.
    world.claudeScenario({
      fork: true,
      forkId: fork,
      steps: [{ sleepMs: 700 }, { say: "carry on" }, { sleepMs: 300 }],
    });
    const result = await world.run(["-c"], { stdin: "\n\n\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc]), [[fork, "Registered work"]]);
    assert.doesNotMatch(result.stdout, /Describe this session/);
    const kept = join(world.paths.backupDir, "project", `${main[0].guid}.jsonl`);
    assert.ok(pathExists(kept), "the predecessor is in the backup folder");
    assert.ok(!pathExists(transcriptPathFor(world.paths, world.project, main[0].guid)));
  });
});

Deno.test("claudecm -c, then /clear: the continued session keeps its row; the new one is left for adopt", async () => {
  const world = createLaunchWorld();
  try {
    const row = await registerOne(world, "Important work");
    const cleared = sessionId(0xc2);
    // Long enough for the pid manifest to be read before and after the /clear. Behind claude.cmd
    // (Windows) it is taken only after 2 s, when no /proc tells ours from another window's.
    world.claudeScenario({
      steps: [
        { sleepMs: ON_WINDOWS ? 2_500 : 700 },
        { say: "more" },
        { clear: cleared },
        { sleepMs: 700 },
      ],
    });
    const result = await world.run(["-c"], { stdin: "\n\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc]), [[row.guid, "Important work"]]);
    assert.match(result.stderr, new RegExp(`new conversation, ${cleared} \\(a /clear\\)`));
    assert.doesNotMatch(result.stderr, /Describe this session/);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name:
    "claudecm -c: another window's claude starting in the folder meanwhile is not taken for ours",
  // Telling a shim's claude from another window's needs /proc (Linux); elsewhere it is timing.
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      world.cmvScenario(QUIET_CMV);
      const ours = sessionId(0xa1);
      const other = sessionId(0xb2);
      const started = join(world.dir, "claude-started");
      // Our claude takes a while to write its manifest, as a real one starting up does.
      useClaudeScript(
        world,
        `${PROJECT_KEY_IMPORT}
const root = Deno.env.get("CLAUDE_CONFIG_DIR");
Deno.writeTextFileSync(${JSON.stringify(started)}, "");
await new Promise((resolve) => setTimeout(resolve, 1500));
const manifest = root + "/sessions/" + Deno.pid + ".json";
Deno.mkdirSync(root + "/sessions", { recursive: true });
Deno.writeTextFileSync(manifest, JSON.stringify({ pid: Deno.pid, sessionId: ${
          JSON.stringify(ours)
        }, cwd: Deno.cwd() }));
const dest = root + "/projects/" + projectKey(Deno.cwd());
Deno.mkdirSync(dest, { recursive: true });
Deno.writeTextFileSync(dest + "/${ours}.jsonl", JSON.stringify({ type: "user", uuid: "u-ours",
  sessionId: ${
          JSON.stringify(ours)
        }, cwd: Deno.cwd(), message: { role: "user", content: "ours" } }) + "\\n");
await new Promise((resolve) => setTimeout(resolve, 800));
Deno.removeSync(manifest);
`,
      );
      const run = world.run(["-c"], { stdin: "\n" });
      while (!pathExists(started)) await new Promise((resolve) => setTimeout(resolve, 20));
      // Another window's claude (this test process stands for it) starts in the same folder.
      Deno.mkdirSync(world.paths.sessionsDir, { recursive: true });
      const manifest = join(world.paths.sessionsDir, `${Deno.pid}.json`);
      Deno.writeTextFileSync(
        manifest,
        JSON.stringify({ pid: Deno.pid, sessionId: other, cwd: world.project }),
      );
      const folder = dirname(transcriptPathFor(world.paths, world.project, other));
      Deno.mkdirSync(folder, { recursive: true });
      Deno.writeTextFileSync(
        join(folder, `${other}.jsonl`),
        JSON.stringify({ type: "user", uuid: "u-other", sessionId: other, cwd: world.project }) +
          "\n",
      );
      const result = await run;
      Deno.removeSync(manifest);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(world.sessions().map((s) => s.guid), [ours]);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name: "a SIGTERM to claudecm behind a shim that does not exec reaches claude too",
  // A shell script stands for claude.cmd; Windows has no SIGTERM to pass on.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      useNonExecShim(world);
      world.claudeScenario({ steps: [{ sleepMs: 20_000 }] });
      const child = claudecmCommand(["n"], { env: world.env, cwd: world.project }).spawn();
      const output = collectOutput(child, "Never started\n");
      const deadline = Date.now() + 20_000;
      while (world.sessions().length === 0 || liveSessionIds(world.paths).size === 0) {
        assert.ok(Date.now() < deadline, "claude never started");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Let claudecm find claude's manifest behind the shim (it reads it every 250 ms).
      await new Promise((resolve) => setTimeout(resolve, 700));
      Deno.kill(child.pid, "SIGTERM");
      const killedAt = Date.now();
      const result = await output;
      assert.equal(result.code, 143, result.stdout + result.stderr);
      // Not claude's own 20 s: without the signal, the shim waits for it (or dies, leaving it).
      assert.ok(Date.now() - killedAt < 10_000, "claude went on after the SIGTERM");
      const still = [...liveSessionIds(world.paths)];
      assert.deepEqual(still, [], "claude ended with claudecm, not left running");
      assert.deepEqual(world.sessions(), []);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test("claudecm -c into a session a line that does not parse names adds no second row", async () => {
  const world = createLaunchWorld();
  try {
    const row = await registerOne(world, "Parser work");
    // The old scripts wrote a typed name as it was: a '|' in it makes a line that does not parse.
    const line = `${row.guid}|${row.dir}|Parser | lexer||\n`;
    Deno.writeTextFileSync(world.paths.registryFile, line);
    world.claudeScenario({ steps: [{ sleepMs: 700 }, { say: "more" }] });
    const result = await world.run(["-c"], { stdin: "\n\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Describe this session/);
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), line);
  } finally {
    world.cleanup();
  }
});

for (
  const flag of ["--bg", "--background", "--desktop", "--cloud", "--teleport", "--environment"]
) {
  Deno.test(`claude run elsewhere (${flag}) gets no row, no --session-id and no false 'nothing saved'`, async () => {
    const world = createLaunchWorld();
    try {
      world.claudeScenario({ messages: [] });
      const result = await world.run(["new", "--", flag, "fix the flaky test"]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(world.sessions(), []);
      const [launch] = world.launches();
      assert.ok(!launch.argv.includes("--session-id"));
      assert.ok(launch.argv.includes(flag));
      assert.doesNotMatch(result.stderr, /No session was saved|Describe this session/);
      assert.match(result.stderr, /claudecm adopt adds it/);
    } finally {
      world.cleanup();
    }
  });
}

Deno.test("a --bg launch that claude refuses says so, with no advice to adopt", async () => {
  const world = createLaunchWorld();
  try {
    world.claudeScenario({ messages: [], exitCode: 1 });
    const result = await world.run(["new", "--", "--bg", "fix the flaky test"]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /claude exited with code 1; nothing was started elsewhere/);
    assert.doesNotMatch(result.stderr, /adopt/);
    assert.deepEqual(world.sessions(), []);
  } finally {
    world.cleanup();
  }
});

Deno.test("a skipped name registers the folder default and asks again after exit", async () => {
  const world = createLaunchWorld();
  try {
    world.claudeScenario({ messages: ["hi"] });
    world.cmvScenario(QUIET_CMV);
    const result = await world.run(["n"], { stdin: "skip\nLater Name\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Describe this session \(Enter for 'Project', 'skip' to skip\)/);
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Later Name"]);
  } finally {
    world.cleanup();
  }
});

Deno.test("an answered skip after exit removes the session again", async () => {
  const world = createLaunchWorld();
  try {
    world.claudeScenario({ messages: ["hi"] });
    world.cmvScenario(QUIET_CMV);
    const result = await world.run(["n"], { stdin: "skip\nskip\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions(), []);
    assert.equal(world.argv("cmv").length, 0, "nothing measured for a session not kept");
  } finally {
    world.cleanup();
  }
});

Deno.test("the session stays registered when claudecm is SIGKILLed while claude runs", async () => {
  const world = createLaunchWorld();
  const release = `${world.dir}/release`;
  try {
    world.claudeScenario({ steps: [{ say: "working" }, { waitForFile: release }] });
    const child = claudecmCommand(["n"], {
      env: world.env,
      cwd: world.project,
      discardOutput: true,
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("Crash Test\n"));
    await writer.close();
    const deadline = Date.now() + 20_000;
    while (world.sessionIdsPassed().length === 0 || !transcriptExists(world)) {
      assert.ok(Date.now() < deadline, "claude never started writing");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill("SIGKILL");
    await child.status;
    assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc]), [
      [world.sessionIdsPassed()[0], "Crash Test"],
    ]);
  } finally {
    Deno.writeTextFileSync(release, "");
    await new Promise((resolve) => setTimeout(resolve, 300));
    world.cleanup();
  }

  function transcriptExists(w: ReturnType<typeof createLaunchWorld>): boolean {
    try {
      return Deno.statSync(transcriptPathFor(w.paths, w.project, w.sessionIdsPassed()[0])).isFile;
    } catch {
      return false;
    }
  }
});

Deno.test({
  name: "a row written ahead is live to other windows while claude starts, before its manifest",
  // The slow claude is a shell script that waits before it becomes the fake claude.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const world = createLaunchWorld();
    const release = `${world.dir}/release`;
    try {
      const slow = join(world.dir, "slow-claude");
      Deno.writeTextFileSync(
        slow,
        `#!/bin/sh
case "$1" in --version|--help) exec "${world.env.CLAUDECM_CLAUDE}" "$@";; esac
` +
          // Gone with the world too: a failed test must not leave it waiting for ever.
          `while [ ! -e "${release}" ] && [ -d "${world.dir}" ]; do sleep 0.05; done
exec "${world.env.CLAUDECM_CLAUDE}" "$@"
`,
      );
      Deno.chmodSync(slow, 0o755);
      world.env.CLAUDECM_CLAUDE = slow;
      world.claudeScenario({ messages: ["hello"] });
      const child = claudecmCommand(["n"], { env: world.env, cwd: world.project }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode("Starting up\n"));
      await writer.close();
      const deadline = Date.now() + 20_000;
      while (world.sessions().length === 0) {
        assert.ok(Date.now() < deadline, "the row was never written");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // claude has not started: no manifest names the session, yet it is open in a window.
      assert.equal(isSessionLive(world.paths, world.sessions()[0].guid), true);
      Deno.writeTextFileSync(release, "");
      const output = await child.output();
      assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
      assert.equal(
        isSessionLive(world.paths, world.sessions()[0].guid),
        false,
        "unmarked at the end",
      );
    } finally {
      Deno.writeTextFileSync(release, "");
      world.cleanup();
    }
  },
});

Deno.test("two fresh launches racing in one project dir each register their own session", async () => {
  const world = createLaunchWorld();
  const release = `${world.dir}/release`;
  try {
    world.claudeScenario({ steps: [{ say: "racing" }, { waitForFile: release }] });
    world.cmvScenario(QUIET_CMV);
    // Pass-through arguments send both straight to a fresh launch (no resume offer for the
    // row the other registers first); each names its session after exit.
    const first = world.run(["--model", "opus"], { stdin: "First\n" });
    const second = world.run(["--model", "opus"], { stdin: "Second\n" });
    const deadline = Date.now() + 20_000;
    while (world.sessionIdsPassed().length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const bothStarted = world.sessionIdsPassed().length === 2;
    Deno.writeTextFileSync(release, "");
    const results = await Promise.all([first, second]);
    assert.ok(bothStarted, `both launches should start: ${JSON.stringify(results)}`);
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    const byPid = new Map(
      world.launches().map((e) => [e.argv[e.argv.indexOf("--session-id") + 1], e]),
    );
    const registered = new Map(world.sessions().map((s) => [s.desc, s.guid]));
    assert.equal(registered.size, 2);
    assert.notEqual(registered.get("First"), registered.get("Second"));
    for (const [desc, guid] of registered) {
      const launch = byPid.get(guid);
      assert.ok(launch, `${desc} is registered under an id claudecm passed`);
      assert.deepEqual(launch.argv.slice(-2), ["--model", "opus"]);
    }
  } finally {
    world.cleanup();
  }
});

Deno.test("pass-through arguments reach claude after claudecm's own", async () => {
  const world = createLaunchWorld();
  try {
    world.claudeScenario({ messages: ["hi"] });
    world.cmvScenario(QUIET_CMV);
    const result = await world.run(["--model", "opus", "--name", "Mine"], { stdin: "\n" });
    assert.equal(result.code, 0, result.stderr);
    const [launch] = world.launches();
    assert.deepEqual(launch.argv.slice(-4), ["--model", "opus", "--name", "Mine"]);
    assert.equal(launch.argv.filter((a) => a === "-n" || a === "--name").length, 1);
    assert.equal(world.sessions().length, 1);
  } finally {
    world.cleanup();
  }
});

Deno.test("a claude without --session-id: the new session is found by set-diff and manifest", async () => {
  const world = createLaunchWorld();
  try {
    const fresh = "5e55e55e-0000-4000-8000-00000000beef";
    world.claudeScenario({ helpWithout: ["--session-id"], sessionId: fresh, messages: ["hi"] });
    world.cmvScenario(QUIET_CMV);
    // Another session in the same folder, written during our launch, must not be taken.
    const other = "0aa0aa00-0000-4000-8000-0000000000aa";
    const otherPath = transcriptPathFor(world.paths, world.project, other);
    Deno.mkdirSync(dirname(otherPath), { recursive: true });
    Deno.writeTextFileSync(otherPath, "{}\n");
    const result = await world.run(["n"], { stdin: "Old Claude\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessionIdsPassed(), []);
    assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc]), [[fresh, "Old Claude"]]);
  } finally {
    world.cleanup();
  }
});

Deno.test("a project path with spaces, quotes, unicode and over 200 characters", async () => {
  const world = createLaunchWorld();
  try {
    // cmd.exe, which runs the fake's .cmd shim, cannot start in a folder past MAX_PATH (260
    // characters): on Windows the path stays under it, and long paths are a real runner's to test.
    const segments = "long-segment-".repeat(ON_WINDOWS ? 5 : 14);
    const leaf = `My ${NAME_QUOTE}quoted${NAME_QUOTE} 'app' – ünïcødé ☕ ${segments}end`;
    const dir = join(world.project, leaf);
    Deno.mkdirSync(dir);
    assert.ok(dir.length > (ON_WINDOWS ? 100 : 200));
    world.claudeScenario({ messages: ["hi"] });
    world.cmvScenario(QUIET_CMV);
    const fresh = await world.run(["new", "--proj", dir], { stdin: "Odd | name\nOdd name\n" });
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(fresh.stderr, /a session name cannot contain '\|'/);
    const [row] = world.sessions();
    assert.deepEqual([row.dir, row.desc], [dir, "Odd name"]);
    assert.ok(Deno.statSync(transcriptPathFor(world.paths, dir, row.guid)).isFile);
    const resumed = await world.run(["1"]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(world.sessions()[0].guid, row.guid, "no false fork");
  } finally {
    world.cleanup();
  }
});

for (const leaf of ["A|b", "two\nlines"]) {
  Deno.test(`a folder named ${JSON.stringify(leaf)} is refused before anything is written`, async () => {
    if (Deno.build.os === "windows") return; // neither character is allowed in a Windows name
    const world = createLaunchWorld();
    try {
      const dir = `${world.project}/${leaf}`;
      Deno.mkdirSync(dir);
      world.claudeScenario({ messages: ["hi"] });
      const before = treeState(world.home);
      for (const args of [["new"], ["n"], ["new", "--proj", dir]]) {
        const result = await world.run(args, { stdin: "\n", cwd: dir });
        assert.equal(result.code, 1, result.stderr);
        assert.match(
          result.stderr,
          /^claudecm: cannot use the folder .* sessions\.txt cannot store/,
        );
        assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
        assert.deepEqual(treeState(world.home), before, "nothing was written");
      }
      assert.deepEqual(world.launches(), []);
    } finally {
      world.cleanup();
    }
  });
}

Deno.test({
  name: "a sessions.txt linked into another file system stays a link and claude starts",
  ignore: !otherFileSystemAvailable(),
  fn: async () => {
    const world = createLaunchWorld();
    const elsewhere = makeTempDirOnOtherFileSystem();
    try {
      const target = `${elsewhere}/sessions.txt`;
      const kept = `${sessionId(1)}|/kept|Kept|\n`;
      Deno.writeTextFileSync(target, kept);
      Deno.symlinkSync(target, world.paths.registryFile);
      world.claudeScenario({ messages: ["hi"] });
      world.cmvScenario(QUIET_CMV);
      const result = await world.run(["n"], { stdin: "Linked\n" });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(world.launches().length, 1, "claude started");
      assert.ok(Deno.lstatSync(world.paths.registryFile).isSymlink, "the link survives");
      const [id] = world.sessionIdsPassed();
      assert.equal(Deno.readTextFileSync(target), `${id}|${world.project}|Linked|12345\n${kept}`);
      assert.deepEqual([...Deno.readDirSync(elsewhere)].map((e) => e.name), ["sessions.txt"]);
    } finally {
      Deno.removeSync(elsewhere, { recursive: true });
      world.cleanup();
    }
  },
});

Deno.test("a directory's session open in another window is not offered for resume", async () => {
  const world = createLaunchWorld();
  try {
    const busy = "b0b0b0b0-0000-4000-8000-00000000b0b0";
    Deno.writeTextFileSync(world.paths.registryFile, `${busy}|${world.project}|Busy one|\n`);
    // Another live claude (this test process stands in for it) is on that session.
    Deno.mkdirSync(world.paths.sessionsDir, { recursive: true });
    Deno.writeTextFileSync(
      `${world.paths.sessionsDir}/${Deno.pid}.json`,
      JSON.stringify({ pid: Deno.pid, sessionId: busy, cwd: world.project }),
    );
    world.claudeScenario({ messages: ["hi"] });
    world.cmvScenario(QUIET_CMV);
    const result = await world.run(["n"], { stdin: "Second Window\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /'Busy one' is open in another claude window/);
    assert.doesNotMatch(result.stderr, /No session entry found/, "there is one, it is busy");
    assert.ok(!world.launches().some((e) => e.argv.includes("--resume")));
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Second Window", "Busy one"]);
  } finally {
    world.cleanup();
  }
});

Deno.test("a missing claude is reported before any question", async () => {
  const world = createLaunchWorld();
  try {
    world.env.CLAUDECM_CLAUDE = `${world.dir}/no-claude-here`;
    for (const args of [["n"], ["new"], ["-r", "00000000-0000-4000-8000-0000000000c1"]]) {
      const result = await world.run(args, { stdin: "Typed Name\n" });
      assert.equal(result.code, 1, args.join(" "));
      assert.match(result.stderr, /CLAUDECM_CLAUDE is set to .*no-claude-here/);
      assert.doesNotMatch(result.stdout, /name for this session/, args.join(" "));
    }
    assert.deepEqual(world.sessions(), []);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "a new session that claude moved with /cd before it exited keeps its row",
  // The claude that does the /cd is a shell script over a Deno script.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const other = join(world.dir, "elsewhere");
      Deno.mkdirSync(other);
      // What the real CLI does on /cd in a fresh session: the transcript goes to the new
      // folder's key, with a `relocated` record (tests/real_claude_cd_contract_test.ts).
      useClaudeScript(
        world,
        `${PROJECT_KEY_IMPORT}
const args = Deno.args;
const id = args[args.indexOf("--session-id") + 1];
const root = Deno.env.get("CLAUDE_CONFIG_DIR");
const to = ${JSON.stringify(other)};
const dest = root + "/projects/" + projectKey(to);
Deno.mkdirSync(dest, { recursive: true });
const line = (o) => JSON.stringify(o) + "\\n";
Deno.writeTextFileSync(dest + "/" + id + ".jsonl",
  line({ type: "user", sessionId: id, cwd: Deno.cwd(), uuid: crypto.randomUUID(), parentUuid: null,
    message: { role: "user", content: "hello before cd" }, timestamp: new Date().toISOString() }) +
  line({ type: "relocated", sessionId: id, relocatedCwd: to }));
`,
      );
      world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
      const result = await world.run(["new"], { stdin: "Moved work\n" });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.doesNotMatch(result.stdout, /No session was saved/);
      assert.deepEqual(world.sessions().map((s) => s.desc), ["Moved work"]);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name: "a claude that cannot be started leaves no row written ahead",
  // The claude that goes away is a shell script.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const vanishing = join(world.dir, "vanishing-claude");
      Deno.writeTextFileSync(
        vanishing,
        `#!/bin/sh\ncase "$1" in --help) rm -f "$0";; esac\nexec "${world.env.CLAUDECM_CLAUDE}" "$@"\n`,
      );
      Deno.chmodSync(vanishing, 0o755);
      world.env.CLAUDECM_CLAUDE = vanishing;
      const result = await world.run(["new", "--", "--model", "x"]);
      assert.equal(result.code, 1, result.stdout);
      assert.match(result.stderr, /cannot run .*vanishing-claude/);
      assert.deepEqual(world.sessions(), [], "no row for a session that never started");
    } finally {
      world.cleanup();
    }
  },
});
