import assert from "node:assert/strict";
import { join } from "node:path";
import { inWorldWithoutCmv, type LaunchWorld } from "./helpers/launch_world.ts";
import { claudecmCommand } from "./helpers/run_cli.ts";
import { registryBytes, seedSessions } from "./helpers/seed.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { projectDirFor } from "../lib/core/paths.ts";

const RECOVERY_TEXT = "This is a recovery session. Read memory first. ... ask before assuming.";

/** Three sessions; the second has lost its transcript but kept memory and subagent state. */
function lostSecond(world: LaunchWorld) {
  const { main } = seedSessions(world, [
    { desc: "First" },
    { desc: "Lost one", tokens: "98765", missing: true },
    { desc: "Third" },
  ]);
  const folder = projectDirFor(world.paths, world.project);
  Deno.mkdirSync(join(folder, "memory"), { recursive: true });
  Deno.writeTextFileSync(join(folder, "memory", "MEMORY.md"), "# notes\n");
  Deno.mkdirSync(join(folder, main[1].guid, "subagents"), { recursive: true });
  Deno.writeTextFileSync(join(folder, main[1].guid, "subagents", "agent-a1.jsonl"), "{}\n");
  return { main, folder };
}

function printRuns(world: LaunchWorld) {
  return world.argv("claude").filter(({ argv }) => argv[0] === "-p");
}

function interactiveRuns(world: LaunchWorld) {
  return world.launches().filter(({ argv }) => argv[0] !== "-p");
}

Deno.test("a lost transcript offers three options; cancel, Enter and end of input change nothing", async () => {
  await inWorldWithoutCmv(async (world) => {
    lostSecond(world);
    const before = registryBytes(world);
    for (const [run, stdin] of ["3\n", "\n", ""].entries()) {
      const result = await world.run(run === 0 ? ["resume", "2"] : ["2"], { stdin });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /The transcript of 'Lost one' is gone/);
      assert.match(result.stderr, /Its memory and subagent state are intact\./);
      assert.match(result.stderr, /1\. Start a fresh Claude session in that directory/);
      assert.match(result.stderr, /2\. Create a recovery-prompt\.md file in the project directory/);
      assert.match(result.stderr, /3\. Cancel/);
      assert.doesNotMatch(result.stderr, /Delete this entry/);
    }
    // Only a resume that ran moves a row to #1 (issue 18 item 9): nothing changed.
    assert.deepEqual(registryBytes(world), before);
    assert.equal(world.launches().length, 0);
  });
});

Deno.test("a fresh start takes over the lost row in place once the new session exists", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = lostSecond(world);
    world.claudeScenario({ messages: ["start again"] });
    const result = await world.run([], { stdin: "2\n1\n" });
    assert.equal(result.code, 0, result.stderr);
    const [id] = world.sessionIdsPassed();
    const [launch] = world.launches();
    assert.deepEqual(launch.argv.slice(1, 5), ["--session-id", id, "-n", "desk - Lost one"]);
    assert.deepEqual(
      world.sessions().map((s) => [s.guid, s.desc, s.tokens]),
      [[id, "Lost one", ""], [main[0].guid, "First", ""], [main[2].guid, "Third", ""]],
    );
    assert.doesNotMatch(result.stdout, /Describe this session/, "the row keeps its name");
  });
});

Deno.test("a fresh start that produces no session leaves the lost row as it was", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = lostSecond(world);
    world.claudeScenario({ messages: [] });
    const result = await world.run(["2"], { stdin: "1\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(world.launches().length, 1);
    assert.deepEqual(
      world.sessions().map((s) => [s.guid, s.tokens]),
      [[main[0].guid, ""], [main[1].guid, "98765"], [main[2].guid, ""]],
    );
  });
});

Deno.test("option 2 writes recovery-prompt.md from claude -p (prompt on stdin), rotating older ones", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main, folder } = lostSecond(world);
    const promptFile = join(world.project, "recovery-prompt.md");
    Deno.writeTextFileSync(promptFile, "v3\n");
    Deno.writeTextFileSync(`${promptFile}.old`, "v2\n");
    Deno.writeTextFileSync(`${promptFile}.old2`, "v1\n");
    const promptLog = join(world.dir, "meta-prompt.txt");
    world.claudeScenario({
      printResult: RECOVERY_TEXT,
      printPromptLog: promptLog,
      messages: ["read recovery-prompt.md"],
    });
    const result = await world.run(["2"], { stdin: "2\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Generating recovery prompt \(this may take a minute\)\.\.\./);
    assert.match(result.stderr, /Recovery prompt saved: .*recovery-prompt\.md/);
    assert.match(result.stderr, /Opening a fresh Claude session in that directory now\.\.\./);
    assert.equal(Deno.readTextFileSync(promptFile), `${RECOVERY_TEXT}\n`);
    assert.equal(Deno.readTextFileSync(`${promptFile}.old`), "v3\n");
    assert.equal(Deno.readTextFileSync(`${promptFile}.old2`), "v2\n");
    assert.equal(Deno.readTextFileSync(`${promptFile}.old3`), "v1\n");
    const [print] = printRuns(world);
    assert.deepEqual(print.argv, [
      "-p",
      "--output-format",
      "json",
      "--no-session-persistence",
      "--dangerously-skip-permissions",
    ]);
    assert.equal(print.cwd, world.project);
    const meta = Deno.readTextFileSync(promptLog);
    assert.ok(meta.startsWith("Context: a Claude Code session was deleted."), meta.slice(0, 80));
    assert.ok(meta.includes(`* Memory files in ${join(folder, "memory")}\n`));
    assert.ok(
      meta.includes(
        `* Subagent transcripts in ${join(folder, main[1].guid, "subagents")} (2-3 most recent; ` +
          "total on disk: 1, latest dated ",
      ),
    );
    assert.ok(meta.includes("* Session name: Lost one\n"));
    assert.ok(meta.includes("* Conversation size when lost: 98765 tokens\n"));
    assert.ok(meta.trimEnd().endsWith("If something is unclear, ask before assuming."));
    assert.deepEqual(meta.split("\n").filter((line) => line.startsWith("-")), [], "no - bullets");
    // Then the fresh session took over the row.
    const [id] = world.sessionIdsPassed();
    assert.equal(interactiveRuns(world).length, 1);
    assert.deepEqual(world.sessions()[0].guid, id);
    assert.deepEqual(
      Object.keys(transcriptsIn(folder)).sort(),
      [main[0].guid, main[2].guid, id].sort(),
      "no transcript of the -p run",
    );
  });
});

Deno.test("a -p run that leaked a transcript has it removed; a failed one cancels in red", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main, folder } = lostSecond(world);
    world.claudeScenario({ printResult: RECOVERY_TEXT, printIgnoresNoPersistence: true });
    const leaked = await world.run(["2"], { stdin: "2\n" });
    assert.equal(leaked.code, 0, leaked.stderr);
    assert.equal(printRuns(world).length, 1);
    assert.deepEqual(
      Object.keys(transcriptsIn(folder)).sort(),
      [main[0].guid, main[2].guid].sort(),
      "the -p transcript is gone (and the fresh launch left none: no message was sent)",
    );
    assert.doesNotMatch(leaked.stderr, /Multiple conversation files/);

    Deno.removeSync(join(world.project, "recovery-prompt.md"));
    const before = registryBytes(world);
    world.claudeScenario({ printResult: "", printIsError: true });
    const failed = await world.run(["2"], { stdin: "2\n" });
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /Recovery prompt generation failed: /);
    assert.ok(!pathExists(join(world.project, "recovery-prompt.md")));
    assert.deepEqual(registryBytes(world), before);
  });
});

Deno.test({
  name:
    "a linked recovery-prompt.md keeps its link; the old text is kept beside the file it was in",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      lostSecond(world);
      const notes = join(world.dir, "notes");
      Deno.mkdirSync(notes);
      Deno.writeTextFileSync(join(notes, "prompt.md"), "the old prompt\n");
      const promptFile = join(world.project, "recovery-prompt.md");
      Deno.symlinkSync(join(notes, "prompt.md"), promptFile);
      world.claudeScenario({ printResult: RECOVERY_TEXT });
      const run = await world.run(["2"], { stdin: "2\n" });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(Deno.lstatSync(promptFile).isSymlink, "still a link");
      assert.equal(Deno.readTextFileSync(promptFile), `${RECOVERY_TEXT}\n`);
      assert.equal(Deno.readTextFileSync(join(notes, "prompt.md.old")), "the old prompt\n");
    });
  },
});

Deno.test("a -p answer that names a session that was there before removes nothing of it", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main, folder } = lostSecond(world);
    // Another window's session, unregistered, open or not: never this run's to remove.
    const other = crypto.randomUUID();
    const text = Deno.readTextFileSync(join(folder, `${main[0].guid}.jsonl`));
    Deno.writeTextFileSync(join(folder, `${other}.jsonl`), text);
    world.claudeScenario({ printResult: RECOVERY_TEXT, printSessionId: other });
    // Enter at the orphan table (the other session shows there), then option 2.
    const run = await world.run(["2"], { stdin: "\n2\n" });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(pathExists(join(world.project, "recovery-prompt.md")), run.stdout);
    assert.equal(Deno.readTextFileSync(join(folder, `${other}.jsonl`)), text);
  });
});

function transcriptsIn(folder: string): Record<string, true> {
  const found: Record<string, true> = {};
  for (const entry of Deno.readDirSync(folder)) {
    if (entry.name.endsWith(".jsonl")) found[entry.name.slice(0, -6)] = true;
  }
  return found;
}

Deno.test("a fresh start from the lost-transcript choices is registered before claude starts", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = lostSecond(world);
    const release = `${world.dir}/release`;
    world.claudeScenario({ steps: [{ say: "start again" }, { waitForFile: release }] });
    const child = claudecmCommand([], {
      env: world.env,
      cwd: world.project,
      discardOutput: true,
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("2\n1\n"));
    await writer.close();
    try {
      const deadline = Date.now() + 20_000;
      while (world.sessionIdsPassed().length === 0) {
        assert.ok(Date.now() < deadline, "claude never started");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The window is closed while claude runs: claudecm never gets to the exit.
      child.kill("SIGKILL");
      await child.status;
      const [id] = world.sessionIdsPassed();
      const rows = world.sessions().map((s) => s.guid);
      assert.ok(rows.includes(id), "the new session has its row");
      assert.ok(rows.includes(main[1].guid), "and the lost one is still there to recover");
    } finally {
      Deno.writeTextFileSync(release, "");
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  });
});
