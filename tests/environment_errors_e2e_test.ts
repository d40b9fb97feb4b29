import assert from "node:assert/strict";
import { sessionId, writeRegistryText } from "./helpers/claude_home.ts";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { claudecmCommand, claudecmInvocation, runClaudecm } from "./helpers/run_cli.ts";
import { permissionsTestable, runClaudecmUnprivileged } from "./helpers/run_unprivileged.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { join } from "../lib/core/path.ts";
import { THREADS_SUBDIR } from "../lib/app/rescue/workspace.ts";

const ROW = `${sessionId(1)}|/somewhere|Kept row|\n`;

function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.doesNotMatch(stderr, /internal error/);
  return lines[0];
}

Deno.test({
  name: "list with a read-only ~/.claudecm shows the list and warns once that nothing is saved",
  ignore: !permissionsTestable,
  fn: async () => {
    const t = createTestContext();
    try {
      writeRegistryText(t.ctx.paths, ROW);
      Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "desk\n");
      Deno.mkdirSync(t.ctx.paths.backupDir);
      for (const dir of [t.ctx.paths.backupDir, t.ctx.paths.cmHome]) Deno.chmodSync(dir, 0o555);
      const result = await runClaudecmUnprivileged(["list"], { env: t.env, home: t.home });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Kept row/);
      const warning = oneLine(result.stderr);
      assert.match(warning, /Nothing can be saved in this run: permission denied: .*\.claudecm/);
      assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), ROW);
    } finally {
      Deno.chmodSync(t.ctx.paths.cmHome, 0o755);
      Deno.chmodSync(t.ctx.paths.backupDir, 0o755);
      t.cleanup();
    }
  },
});

Deno.test({
  name:
    "a read-only ~/.claudecm: E, a new project and M#'s name are refused before anything is typed",
  ignore: !permissionsTestable,
  fn: async () => {
    const t = createTestContext();
    try {
      writeRegistryText(t.ctx.paths, ROW);
      Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "desk\n");
      Deno.mkdirSync(t.ctx.paths.backupDir);
      for (const dir of [t.ctx.paths.backupDir, t.ctx.paths.cmHome]) Deno.chmodSync(dir, 0o555);
      const result = await runClaudecmUnprivileged([], {
        env: t.env,
        home: t.home,
        // After the refused E, what was meant for the edit list is read as project titles.
        stdin: "e\nr1\ny\n\n",
      });
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stdout,
        /Editing the list is not possible: nothing can be saved in this run: permission denied: .*\.claudecm/,
      );
      assert.match(result.stdout, /A new project named 'r1' is not possible: nothing can be saved/);
      assert.doesNotMatch(result.stdout, /New name for|Create a NEW project/);
      assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), ROW);
    } finally {
      Deno.chmodSync(t.ctx.paths.cmHome, 0o755);
      Deno.chmodSync(t.ctx.paths.backupDir, 0o755);
      t.cleanup();
    }
  },
});

Deno.test({
  name: "a read-only backup folder alone is said as what it is: the run still saves",
  ignore: !permissionsTestable,
  fn: async () => {
    const t = createTestContext();
    try {
      writeRegistryText(t.ctx.paths, ROW);
      Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "desk\n");
      Deno.mkdirSync(t.ctx.paths.backupDir);
      Deno.chmodSync(t.ctx.paths.cmHome, 0o777);
      Deno.chmodSync(t.ctx.paths.registryFile, 0o666);
      Deno.chmodSync(t.ctx.paths.machineNameFile, 0o666);
      Deno.chmodSync(t.ctx.paths.backupDir, 0o555);
      const result = await runClaudecmUnprivileged(["list"], { env: t.env, home: t.home });
      assert.equal(result.code, 0, result.stderr);
      const warning = oneLine(result.stderr);
      assert.doesNotMatch(warning, /Nothing can be saved/);
      assert.match(warning, /sessions\.txt could not be backed up: permission denied: .*backup/);
    } finally {
      Deno.chmodSync(t.ctx.paths.backupDir, 0o755);
      t.cleanup();
    }
  },
});

Deno.test({
  name: "an unreadable ~/.claudecm is a one-line error naming the path; doctor calls it a problem",
  ignore: !permissionsTestable,
  fn: async () => {
    const t = createTestContext();
    try {
      writeRegistryText(t.ctx.paths, ROW);
      Deno.chmodSync(t.ctx.paths.cmHome, 0o000);
      for (const args of [["list", "--json"], ["list"]]) {
        const result = await runClaudecmUnprivileged(args, { env: t.env, home: t.home });
        assert.equal(result.code, 1, `${args}: ${result.stderr}`);
        const last = result.stderr.trimEnd().split("\n").at(-1)!;
        assert.match(last, /^claudecm: permission denied: .*\.claudecm.*; let your user read/);
        assert.doesNotMatch(result.stderr, /internal error/);
      }
      const doctor = await runClaudecmUnprivileged(["doctor", "--json"], {
        env: t.env,
        home: t.home,
      });
      const report = JSON.parse(doctor.stdout);
      assert.notEqual(report.registry.exists, false);
      assert.equal(report.registry.status, "problem");
      assert.match(report.registry.error, /^permission denied: .*sessions\.txt; let your user/);
    } finally {
      Deno.chmodSync(t.ctx.paths.cmHome, 0o755);
      t.cleanup();
    }
  },
});

Deno.test("sessions.txt being a folder is a one-line error naming it", async () => {
  const world = createLaunchWorld();
  try {
    Deno.mkdirSync(world.paths.registryFile);
    world.claudeScenario({ messages: ["hi"] });
    for (const args of [["list", "--json"], ["list"], ["resume", "1"], ["n"]]) {
      const result = await world.run(args, { stdin: "Name\n" });
      assert.equal(result.code, 1, `${args}: ${result.stderr}`);
      // Launching commands may first say in one line which permission flag claude gets.
      const last = result.stderr.trimEnd().split("\n").at(-1)!;
      assert.match(
        last,
        /^claudecm: .*sessions\.txt is a folder where claudecm needs a file; move it away$/,
      );
      assert.doesNotMatch(result.stderr, /internal error/);
      if (args[0] === "list") oneLine(result.stderr);
    }
    assert.deepEqual(world.launches(), [], "claude never started");
  } finally {
    world.cleanup();
  }
});

Deno.test("a reader that stops early (list --json | head -c1) gets no error message", async () => {
  const t = createTestContext();
  try {
    const rows = Array.from({ length: 2_000 }, (_, i) => `${sessionId(i + 1)}|/p/${i}|Row ${i}|`);
    writeRegistryText(t.ctx.paths, rows.join("\n") + "\n");
    const child = claudecmCommand(["list", "--json"], { env: t.env, noStdin: true }).spawn();
    const reader = child.stdout.getReader();
    const first = await reader.read();
    assert.ok(first.value !== undefined && first.value.length > 0);
    await reader.cancel();
    const [status, stderr] = await Promise.all([
      child.status,
      new Response(child.stderr).text(),
    ]);
    assert.equal(stderr, "");
    assert.equal(status.code, 1);
  } finally {
    t.cleanup();
  }
});

Deno.test({
  name: "find with a read-only ~/.claudecm searches the transcripts instead, and says so",
  ignore: !permissionsTestable,
  fn: async () => {
    const t = createTestContext();
    try {
      const dir = `${t.ctx.paths.projectsDir}/-work-app`;
      Deno.mkdirSync(dir, { recursive: true });
      const line = {
        type: "user",
        message: { role: "user", content: "the okapi deploy" },
        cwd: "/work/app",
        sessionId: sessionId(7),
        timestamp: "2026-11-30T10:00:00Z",
      };
      Deno.writeTextFileSync(`${dir}/${sessionId(7)}.jsonl`, `${JSON.stringify(line)}\n`);
      Deno.chmodSync(t.ctx.paths.projectsDir, 0o755);
      Deno.chmodSync(dir, 0o755);
      Deno.chmodSync(`${dir}/${sessionId(7)}.jsonl`, 0o644);
      Deno.chmodSync(t.ctx.paths.claudeRoot, 0o755);
      Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
      Deno.chmodSync(t.ctx.paths.cmHome, 0o555);
      const result = await runClaudecmUnprivileged(["find", "--json", "okapi"], {
        env: t.env,
        home: t.home,
      });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(
        JSON.parse(result.stdout).results.map((r: { sessionId: string }) => r.sessionId),
        [
          sessionId(7),
        ],
      );
      assert.match(
        oneLine(result.stderr),
        /search index cannot be written .*searching the transcripts/,
      );
    } finally {
      Deno.chmodSync(t.ctx.paths.cmHome, 0o755);
      t.cleanup();
    }
  },
});

Deno.test({
  name: "a pipe at sessions.txt is one line for every command, read-only ones too, never a hang",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const t = createTestContext();
    try {
      Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
      assert.ok(
        new Deno.Command("mkfifo", { args: [t.ctx.paths.registryFile] }).outputSync().success,
      );
      for (const args of [["list", "--json"], ["list"], ["doctor", "--json"]]) {
        const command = claudecmCommand(args, { env: t.env, cwd: t.home }).spawn();
        const timer = setTimeout(() => command.kill("SIGKILL"), 20_000);
        const output = await command.output();
        clearTimeout(timer);
        const stderr = new TextDecoder().decode(output.stderr);
        assert.notEqual(output.signal, "SIGKILL", `${args.join(" ")} hung`);
        if (args[0] === "doctor") continue; // doctor reports it as a problem in its JSON
        assert.equal(output.code, 1, `${args.join(" ")}: ${stderr}`);
        assert.match(stderr, /sessions\.txt is (not a regular file|a pipe)/);
      }
    } finally {
      t.cleanup();
    }
  },
});

/** Run claudecm with `args`, killing it after 20 s: returns how it ended. */
async function runOrKill(args: string[], options: { env: Record<string, string>; cwd: string }) {
  const command = claudecmCommand(args, options).spawn();
  const timer = setTimeout(() => command.kill("SIGKILL"), 20_000);
  const output = await command.output();
  clearTimeout(timer);
  return { ...output, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test({
  name:
    "a pipe where a pid manifest, a resume marker, the skill or a rescue index goes hangs nothing",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const t = createTestContext();
    try {
      const mkfifo = (path: string) => {
        Deno.mkdirSync(t.ctx.paths.path.dirname(path), { recursive: true });
        assert.ok(new Deno.Command("mkfifo", { args: [path] }).outputSync().success);
      };
      mkfifo(join(t.ctx.paths.sessionsDir, "4242.json"));
      mkfifo(join(t.ctx.paths.resumingDir, "4343.json"));
      mkfifo(join(t.ctx.paths.claudeRoot, "skills", "recover", "SKILL.md"));
      const workspace = join(t.home, "ws");
      mkfifo(join(workspace, THREADS_SUBDIR, "INDEX.md"));
      const env = t.env;
      for (const args of [["list", "--json"], ["doctor", "--json"]]) {
        const run = await runOrKill(args, { env, cwd: t.home });
        assert.notEqual(run.signal, "SIGKILL", `${args.join(" ")} hung`);
        // doctor exits 1 here for want of a claude; it answers in JSON all the same.
        assert.ok(
          JSON.parse(new TextDecoder().decode(run.stdout)),
          `${args.join(" ")}: ${run.stderr}`,
        );
        if (args[0] === "list") assert.equal(run.code, 0, run.stderr);
      }
      const skill = await runOrKill(["skill", "install"], { env, cwd: t.home });
      assert.notEqual(skill.signal, "SIGKILL", "skill install hung");
      assert.equal(skill.code, 1);
      assert.match(skill.stderr, /SKILL\.md: it is not a regular file/);
      const rescue = await runOrKill(["rescue", "--all", "--json"], { env, cwd: workspace });
      assert.notEqual(rescue.signal, "SIGKILL", "rescue hung");
      assert.match(rescue.stderr, /INDEX\.md: it is not a regular file/);
    } finally {
      t.cleanup();
    }
  },
});

Deno.test({
  name: "in a folder whose name is not UTF-8: --version and resume work, new says why it cannot",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      world.claudeScenario({ messages: ["first"] });
      assert.equal((await world.run(["n"], { stdin: "Work\n" })).code, 0);
      const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
      // Deno names folders in strings: the shell makes and enters one named by bytes.
      const inOddFolder = async (args: string[]) => {
        const script = 'd="$(printf "%s/caf\\351" "$BASE")"; mkdir -p "$d" && cd "$d" && exec "$@"';
        const output = await new Deno.Command("sh", {
          args: ["-c", script, "sh", program, ...leading, ...args],
          env: { ...world.env, BASE: world.dir },
          clearEnv: true,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).output();
        const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
        return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
      };
      const version = await inOddFolder(["--version"]);
      assert.equal(version.code, 0, version.stderr);
      assert.match(version.stdout, /^\d+\.\d+\.\d+\n/);
      world.claudeScenario({ messages: ["more"] });
      const resumed = await inOddFolder(["resume", "1"]);
      assert.equal(resumed.code, 0, resumed.stderr);
      // Absolute paths need no name for the folder claudecm runs in.
      for (
        const args of [
          ["find", "--json", "--project", world.project, "first"],
          ["recover", "--json", "--cwd", world.project],
          ["move", "--dry-run", join(world.dir, "gone"), world.project],
        ]
      ) {
        const run = await inOddFolder(args);
        assert.doesNotMatch(run.stderr, /not valid UTF-8/, args.join(" "));
      }
      const fresh = await inOddFolder(["new"]);
      assert.equal(fresh.code, 1);
      assert.equal(
        fresh.stderr,
        "claudecm: the folder you are in has a name that is not valid UTF-8, which claudecm " +
          "cannot record; run it from another folder (or rename this one)\n",
      );
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name: "CLAUDECM_DEBUG=1 adds the stack trace behind the one-line error; without it, one line",
  // The same code on every OS; Windows words a file in a folder's place as another failure.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const t = createTestContext();
    try {
      Deno.writeTextFileSync(t.ctx.paths.cmHome, "a file where the folder goes\n");
      const plain = await runClaudecm(["list"], { env: t.env });
      assert.equal(plain.code, 1);
      // Each OS words a file in a folder's place its own way: one line, never an internal error.
      assert.match(plain.stderr, /^claudecm: .*\.claudecm/);
      assert.doesNotMatch(plain.stderr, /internal error/);
      assert.equal(plain.stderr.trimEnd().split("\n").length, 1);
      const debug = await runClaudecm(["list"], { env: { ...t.env, CLAUDECM_DEBUG: "1" } });
      assert.equal(debug.code, 1);
      assert.ok(debug.stderr.startsWith(plain.stderr), debug.stderr);
      assert.match(debug.stderr, /\n\s+at /, "the stack trace follows");
    } finally {
      t.cleanup();
    }
  },
});
