import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { UserError } from "../lib/core/errors.ts";
import {
  planSpawn,
  runCaptured,
  runQuerySync,
  spawnBackground,
  spawnInteractive,
} from "../lib/platform/spawn.ts";
import { createFakeWorld, waitUntil } from "./helpers/fakes.ts";
import { pathExists } from "../lib/core/fs_checks.ts";

const POSIX = Deno.build.os !== "windows";
const HARNESS = fileURLToPath(new URL("./helpers/spawn_harness.ts", import.meta.url));

Deno.test("planSpawn runs a Windows .cmd through cmd.exe with a raw command line, anything else directly", () => {
  const env = { ComSpec: "C:\\Windows\\system32\\cmd.exe" };
  assert.deepEqual(planSpawn("C:\\npm\\cmv.cmd", ["trim", "-s", "a b"], { os: "windows", env }), {
    command: "C:\\Windows\\system32\\cmd.exe",
    args: ["/d", "/s", "/c", '"C:\\npm\\cmv.cmd ^^^"trim^^^" ^^^"-s^^^" ^^^"a^^^ b^^^""'],
    windowsRawArguments: true,
  });
  assert.deepEqual(planSpawn("C:\\bin\\claude.exe", ["-n", "a b"], { os: "windows", env }), {
    command: "C:\\bin\\claude.exe",
    args: ["-n", "a b"],
    windowsRawArguments: false,
  });
  assert.deepEqual(
    planSpawn("/usr/bin/x.cmd", ["a"], { os: "linux", env: {} }).command,
    "/usr/bin/x.cmd",
  );
});

Deno.test("runCaptured passes stdin, captures output and exit code, in the given cwd and env only", async () => {
  const world = createFakeWorld();
  try {
    world.claudeScenario({ printResult: "answer" });
    const result = await runCaptured(world.claudePath, ["-p", "--output-format", "json"], {
      cwd: world.project,
      env: world.env,
      stdin: "a prompt far longer than any command line could carry ".repeat(1000),
    });
    assert.equal(result.code, 0);
    assert.equal(result.timedOut, false);
    assert.equal(JSON.parse(result.stdout).result, "answer");
    assert.equal(world.argv("claude")[0].cwd, world.project);
    const failing = await runCaptured(world.claudePath, ["--session-id", "nope"], {
      cwd: world.project,
      env: world.env,
    });
    assert.equal(failing.code, 1);
    assert.match(failing.stderr, /Invalid session ID/);
  } finally {
    world.cleanup();
  }
});

Deno.test("runCaptured turns a missing program into a one-line UserError and stops a slow one on timeout", async () => {
  const world = createFakeWorld();
  try {
    await assert.rejects(
      () => runCaptured(`${world.dir}/no-such-tool`, [], { cwd: world.project, env: world.env }),
      (error: unknown) =>
        error instanceof UserError && /^cannot run .*no-such-tool: not found$/.test(error.message),
    );
    world.claudeScenario({ steps: [{ sleepMs: 10_000 }] });
    const started = Date.now();
    const slow = await runCaptured(world.claudePath, [], {
      cwd: world.project,
      env: world.env,
      timeoutMs: 300,
    });
    assert.equal(slow.timedOut, true);
    assert.notEqual(slow.code, 0);
    assert.ok(Date.now() - started < 5000);
  } finally {
    world.cleanup();
  }
});

/**
 * A child that starts a grandchild holding its stdout and stderr for a minute
 * (escaping the child's process group on POSIX, as a daemon would), prints,
 * then exits with 3, or with `stayMs` first stays that long.
 */
function pipeHolderScript(pidFile: string, stayMs: number): string {
  return `const holder = new Deno.Command(Deno.execPath(), {
      args: ["eval", "setTimeout(() => {}, 60000)"],
      stdin: "null", stdout: "inherit", stderr: "inherit", detached: ${POSIX},
    }).spawn();
    Deno.writeTextFileSync(${JSON.stringify(pidFile)}, String(holder.pid));
    console.log("child output");
    await new Promise((resolve) => setTimeout(resolve, ${stayMs}));
    Deno.exit(3);`;
}

function endHolder(pidFile: string): void {
  try {
    Deno.kill(Number(Deno.readTextFileSync(pidFile)), "SIGKILL");
  } catch {
    // Never started, or gone already.
  }
}

Deno.test("runCaptured stops waiting for pipes another process holds once the child exited or timed out", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-pipes-" });
  const options = { cwd: dir, env: Deno.env.toObject() };
  try {
    const exited = `${dir}/exited.pid`;
    let started = Date.now();
    const done = await runCaptured(Deno.execPath(), ["eval", pipeHolderScript(exited, 0)], options);
    assert.deepEqual([done.code, done.stdout.trim(), done.timedOut], [3, "child output", false]);
    assert.ok(Date.now() - started < 20_000, "waited for the holder of the pipe");
    const timed = `${dir}/timed.pid`;
    started = Date.now();
    const slow = await runCaptured(Deno.execPath(), ["eval", pipeHolderScript(timed, 60_000)], {
      ...options,
      timeoutMs: 2_000,
    });
    assert.equal(slow.timedOut, true);
    assert.ok(Date.now() - started < 20_000, "waited past the timeout for the holder of the pipe");
  } finally {
    endHolder(`${dir}/exited.pid`);
    endHolder(`${dir}/timed.pid`);
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("spawnInteractive returns the pid claude writes its manifest under, then the exit code", async () => {
  const world = createFakeWorld();
  try {
    const go = `${world.dir}/go`;
    world.claudeScenario({ steps: [{ waitForFile: go }], exitCode: 130 });
    const child = spawnInteractive(world.claudePath, [], { cwd: world.project, env: world.env });
    const manifest = `${world.claudeRoot}/sessions/${child.pid}.json`;
    // On Windows the .cmd shim runs under cmd.exe, so the fake's pid is not the spawned one.
    if (POSIX) await waitUntil(() => pathExists(manifest));
    Deno.writeTextFileSync(go, "");
    assert.equal(await child.status, 130);
    assert.ok(!pathExists(manifest));
  } finally {
    world.cleanup();
  }
});

Deno.test("spawnBackground captures output and reports the pid while it runs", async () => {
  const world = createFakeWorld();
  try {
    world.claudeScenario({ messages: ["hi"] });
    await runCaptured(world.claudePath, ["--session-id", ID], {
      cwd: world.project,
      env: world.env,
    });
    world.cmvScenario({ snapshotDelayMs: 100 });
    const run = spawnBackground(world.cmvPath, ["snapshot", "label", "-s", ID], {
      cwd: world.project,
      env: world.env,
    });
    assert.ok(run.pid > 0);
    const result = await run.result;
    assert.equal(result.code, 0);
    assert.match(result.stdout, /Snapshot "label" created/);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "while the child runs, SIGINT to claudecm is ignored; after it ends, Ctrl-C works again",
  ignore: !POSIX,
  fn: async () => {
    const dir = Deno.makeTempDirSync();
    try {
      const result = `${dir}/result.json`;
      const harness = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", HARNESS, result, "sh", "-c", "kill -INT $PPID; sleep 0.3; exit 7"],
        env: { HARNESS_SIGINT_AFTER: "1" },
        stdout: "null",
        stderr: "piped",
      });
      const status = await harness.output();
      assert.deepEqual(
        JSON.parse(Deno.readTextFileSync(result)).code,
        7,
        "claudecm outlived the SIGINT",
      );
      assert.equal(status.signal, "SIGINT", "and died of the SIGINT sent after the child ended");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "Ctrl-C at the terminal (SIGINT to the process group) ends the child with 130, claudecm lives to record it",
  ignore: !POSIX,
  fn: async () => {
    const dir = Deno.makeTempDirSync();
    try {
      const result = `${dir}/result.json`;
      const harness = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", HARNESS, result, "sh", "-c", `touch ${dir}/started; sleep 5`],
        stdout: "null",
        stderr: "null",
        detached: true, // its own process group, like a terminal's foreground job
      }).spawn();
      await waitUntil(() => pathExists(`${dir}/started`));
      Deno.kill(-harness.pid, "SIGINT");
      const status = await harness.status;
      assert.equal(status.code, 0);
      assert.equal(JSON.parse(Deno.readTextFileSync(result)).code, 130);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

const ID = "3e5a7c99-6d98-4a7c-8f5b-4c0d1e2f3a4b";

Deno.test({
  name:
    "a timed child has its own process group: Ctrl-C to claudecm is passed on to it, and the run ends cancelled",
  ignore: !POSIX,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "claudecm-int-" });
    try {
      const spawnModule = new URL("../lib/platform/spawn.ts", import.meta.url).href;
      // Ctrl-C only once the child is running (its pid file is there): a fixed delay
      // raced the start of the child on a loaded machine.
      const script = `import { runCaptured } from ${JSON.stringify(spawnModule)};
        const running = runCaptured("sh", ["-c", 'echo $$ > ${dir}/pid.tmp; mv ${dir}/pid.tmp ${dir}/pid; sleep 30; true'],
          { cwd: ${JSON.stringify(dir)}, env: { PATH: Deno.env.get("PATH") }, timeoutMs: 20000 });
        while (true) {
          try { Deno.statSync(${
        JSON.stringify(`${dir}/pid`)
      }); break; } catch { await new Promise((r) => setTimeout(r, 20)); }
        }
        Deno.kill(Deno.pid, "SIGINT");
        try {
          await running;
          Deno.writeTextFileSync(${JSON.stringify(`${dir}/returned`)}, "");
        } catch (error) {
          Deno.writeTextFileSync(${JSON.stringify(`${dir}/cancelled`)}, error.name);
          Deno.exit(130);
        }`;
      const run = await new Deno.Command(Deno.execPath(), {
        args: ["eval", script],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.equal(run.signal ?? run.code, run.signal === null ? 130 : "SIGINT");
      assert.equal(pathExists(`${dir}/returned`), false);
      assert.equal(Deno.readTextFileSync(`${dir}/cancelled`), "InterruptedError");
      const shell = Number(Deno.readTextFileSync(`${dir}/pid`));
      await waitUntil(() => {
        try {
          Deno.kill(shell, "SIGCONT");
          return false;
        } catch {
          return true;
        }
      }, 10_000);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("runQuerySync: the answer, its code and both outputs; a missing program throws NotFound", () => {
  const env = { ...Deno.env.toObject(), ASKED: "yes" };
  const answer = runQuerySync(Deno.execPath(), [
    "eval",
    "console.log(Deno.env.get('ASKED')); console.error('note'); Deno.exit(3)",
  ], { cwd: undefined, env });
  assert.deepEqual(answer, { code: 3, stdout: "yes\n", stderr: "note\n" });
  assert.throws(
    () => runQuerySync("claudecm-no-such-program", [], { cwd: undefined, env }),
    Deno.errors.NotFound,
  );
});
