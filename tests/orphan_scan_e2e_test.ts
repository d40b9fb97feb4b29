import assert from "node:assert/strict";
import { join } from "node:path";
import { inWorldWithoutCmv, type LaunchWorld } from "./helpers/launch_world.ts";
import { startDialogue } from "./helpers/dialogue.ts";
import { seedSessions } from "./helpers/seed.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { projectDirFor } from "../lib/core/paths.ts";

const ORPHAN = "0e0e0e0e-0000-4000-8000-00000000beef";

/** A registered session, an unregistered newer transcript beside it, and an index listing both. */
function withOrphan(world: LaunchWorld) {
  const { main } = seedSessions(world, [{ desc: "Registered work" }]);
  const folder = projectDirFor(world.paths, world.project);
  const old = new Date(2026, 0, 1);
  Deno.utimeSync(join(folder, `${main[0].guid}.jsonl`), old, old);
  save(folder, finishedSession({ sessionId: ORPHAN, cwd: world.project }));
  Deno.mkdirSync(join(folder, ORPHAN, "subagents"), { recursive: true });
  Deno.writeTextFileSync(
    join(folder, "sessions-index.json"),
    JSON.stringify({
      version: 1,
      entries: [{ sessionId: main[0].guid }, { sessionId: ORPHAN }],
      originalPath: world.project,
    }),
  );
  return { registered: main[0], folder };
}

Deno.test("the orphan scan is silent when the folder is tidy", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    // Two sessions registered to the same folder are not a problem either.
    seedSessions(world, [{ desc: "One" }, { desc: "Two" }]);
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Multiple conversation files/);
    assert.equal(world.launches().length, 1);
  });
});

Deno.test("q N quarantines an orphan to the quarantine root, never the backup dir, and syncs the index", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { registered, folder } = withOrphan(world);
    const result = await world.run(["1"], { stdin: "q 1\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Multiple conversation files found \(project\):/);
    assert.match(
      result.stderr,
      /\n {2}1\. \d{4}-\d\d-\d\d \d\d:\d\d +[\d.]+ K?B {2}\(orphan\) Run the tests {2}0e0e/,
    );
    assert.match(
      result.stderr,
      /\n {2}2\. 2026-01-01 00:00 +[\d.]+ K?B {2}Registered work \* {2}5eed/,
    );
    assert.match(result.stderr, /\[q number\] to quarantine to backup/);
    assert.match(result.stderr, new RegExp(`Quarantined to backup: project/${ORPHAN}`));
    const quarantine = join(world.paths.quarantineRoot, "project");
    assert.ok(pathExists(join(quarantine, `${ORPHAN}.jsonl`)));
    assert.ok(pathExists(join(quarantine, ORPHAN, "subagents")), "the sidecar dir goes too");
    assert.ok(!pathExists(join(folder, `${ORPHAN}.jsonl`)));
    assert.ok(!pathExists(join(world.paths.backupDir, "project")), "never the backup dir");
    assert.notEqual(world.paths.quarantineRoot, world.paths.backupDir);
    const index = JSON.parse(Deno.readTextFileSync(join(folder, "sessions-index.json")));
    assert.deepEqual(index.entries.map((e: { sessionId: string }) => e.sessionId), [
      registered.guid,
    ]);
    // The scan then found the folder tidy and the registered session was resumed.
    assert.equal(result.stderr.match(/Multiple conversation files/g)?.length, 1);
    assert.deepEqual(world.launches()[0].argv.slice(1, 3), ["--resume", registered.guid]);
  });
});

Deno.test("the registered session cannot be quarantined; Enter continues with it", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { registered, folder } = withOrphan(world);
    const result = await world.run(["1"], { stdin: "q2\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /That is the registered session; it cannot be quarantined\./);
    assert.ok(pathExists(join(folder, `${registered.guid}.jsonl`)));
    assert.ok(pathExists(join(folder, `${ORPHAN}.jsonl`)));
    assert.ok(!pathExists(world.paths.quarantineRoot));
    assert.deepEqual(world.launches()[0].argv.slice(1, 3), ["--resume", registered.guid]);
    const enter = await world.run(["1"], { stdin: "\n" });
    assert.equal(enter.code, 0, enter.stderr);
    assert.deepEqual(world.launches()[1].argv.slice(1, 3), ["--resume", registered.guid]);
  });
});

Deno.test("a number in the orphan scan resumes that transcript and registers it after exit", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { registered } = withOrphan(world);
    const result = await world.run([], { stdin: "1\n1\nFound again\n" });
    assert.equal(result.code, 0, result.stderr);
    const [launch] = world.launches();
    // The orphan's own title (issue 18 item 3), never the row the scan ran for.
    assert.deepEqual(launch.argv.slice(1, 5), ["--resume", ORPHAN, "-n", "desk - Run the tests"]);
    assert.deepEqual(
      world.sessions().map((s) => [s.guid, s.desc]),
      [[ORPHAN, "Found again"], [registered.guid, "Registered work"]],
    );
  });
});

Deno.test("a session a line names, though the line does not parse, is no orphan and gets no second row", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    withOrphan(world);
    const text = Deno.readTextFileSync(world.paths.registryFile);
    // The old scripts wrote a typed name verbatim: a '|' in it makes a line claudecm keeps as is.
    const withLine = `${text}${ORPHAN}|${world.project}|Parser | lexer work|\n`;
    Deno.writeTextFileSync(world.paths.registryFile, withLine);
    const result = await world.run([], { stdin: "1\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(
      result.stderr,
      /\(orphan\)|Multiple conversation files/,
      "two listed sessions",
    );
    // Resumed by id, as a session the list lacks would be: no second row after the exit.
    const byId = await world.run(["-r", ORPHAN]);
    assert.equal(byId.code, 0, byId.stderr);
    assert.match(byId.stderr, /named by a line of sessions\.txt that does not parse/);
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), withLine, "no second row");
  });
});

Deno.test("a session registered to another folder with the same key is shown as wrong directory", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const spaced = join(world.dir, "my app");
    const dashed = join(world.dir, "my-app");
    seedSessions(world, [{ desc: "Spaced", dir: spaced }, { desc: "Dashed", dir: dashed }]);
    const result = await world.run(["1"], { stdin: "q 1\nq 2\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Multiple conversation files found \(my app\):/);
    assert.match(result.stderr, /Dashed \(wrong directory\)/);
    assert.match(result.stderr, /\(wrong directory\) = in the list, but registered to another/);
    assert.match(result.stderr, /Spaced \*/);
    assert.ok(!pathExists(world.paths.quarantineRoot), "registered sessions are never quarantined");
  });
});

Deno.test("claudecm new in a folder with an orphan offers the scan before its saved session", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    withOrphan(world);
    const result = await world.run(["n"], { stdin: "1\nFound in new\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Multiple conversation files found \(project\):/);
    assert.doesNotMatch(result.stderr, /Session found:/);
    assert.deepEqual(world.launches()[0].argv.slice(1, 3), ["--resume", ORPHAN]);
    assert.equal(world.sessions()[0].desc, "Found in new");
  });
});

const SECOND = "0e0e0e0e-0000-4000-8000-00000000cafe";

/** `withOrphan` plus a second, older orphan titled by its first prompt only. */
function withTwoOrphans(world: LaunchWorld) {
  const made = withOrphan(world);
  const path = save(made.folder, finishedSession({ sessionId: SECOND, cwd: world.project }));
  // Only the prompt names it: the metadata line (with its AI title) is dropped.
  const lines = Deno.readTextFileSync(path).trimEnd().split("\n");
  const kept = lines.filter((line) => !line.includes('"ai-title"'));
  Deno.writeTextFileSync(path, kept.join("\n") + "\n");
  const older = new Date(2026, 0, 2);
  Deno.utimeSync(path, older, older);
  return made;
}

Deno.test("orphan rows show their title, last activity and size; q all quarantines every orphan", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { registered, folder } = withTwoOrphans(world);
    const result = await world.run(["1"], { stdin: "q all\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /\n {5}Last activity {9}Size {2}Title\n/);
    assert.match(
      result.stderr,
      /\n {2}1\. \d{4}-[\d: -]+ +[\d.]+ K?B {2}\(orphan\) Run the tests {2}0e0e/,
    );
    assert.match(
      result.stderr,
      /\n {2}2\. 2026-01-02 00:00 +[\d.]+ K?B {2}\(orphan\) Run the tests and fix what fails\. {2}0e0e.*cafe/,
    );
    assert.match(result.stderr, /q 1,3 or q all for several/);
    for (const guid of [ORPHAN, SECOND]) {
      assert.ok(!pathExists(join(folder, `${guid}.jsonl`)));
      assert.ok(pathExists(join(world.paths.quarantineRoot, "project", `${guid}.jsonl`)));
    }
    assert.deepEqual(world.launches()[0].argv.slice(1, 3), ["--resume", registered.guid]);
  });
});

Deno.test("q 1,3 quarantines the orphans named and refuses the registered one among them", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { registered, folder } = withTwoOrphans(world);
    const result = await world.run(["1"], { stdin: "q 1,3,2\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /That is the registered session; it cannot be quarantined\./);
    assert.ok(!pathExists(join(folder, `${ORPHAN}.jsonl`)));
    assert.ok(!pathExists(join(folder, `${SECOND}.jsonl`)));
    assert.ok(pathExists(join(folder, `${registered.guid}.jsonl`)));
    assert.deepEqual(world.launches()[0].argv.slice(1, 3), ["--resume", registered.guid]);
  });
});

Deno.test({
  name: "a quarantine target that refuses the files names it and the fix, and the resume goes on",
  // /sys refuses new folders (EPERM) even to root: a stand-in for a read-only or full target.
  ignore: Deno.build.os !== "linux" || !pathExists("/sys/kernel"),
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      world.claudeScenario({ messages: ["carry on"] });
      const { registered, folder } = withOrphan(world);
      Deno.symlinkSync("/sys/kernel", world.paths.quarantineRoot);
      const result = await world.run(["1"], { stdin: "q 1\n" });
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        new RegExp(`Could not quarantine ${ORPHAN} to .*claude-conversation-backup/project: `),
      );
      assert.match(result.stderr, /The transcript stays where it was\./);
      assert.match(result.stderr, /CLAUDECM_HOME does not move it/);
      assert.doesNotMatch(result.stderr, /set CLAUDECM_HOME/);
      assert.ok(pathExists(join(folder, `${ORPHAN}.jsonl`)));
      assert.deepEqual(world.launches()[0].argv.slice(1, 3), ["--resume", registered.guid]);
    });
  },
});

Deno.test("quarantine re-checks the file: an orphan written to after the table was shown stays", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { folder } = withOrphan(world);
    const dialogue = startDialogue(["1"], { env: world.env, cwd: world.project });
    await dialogue.waitFor(/Choice \(Enter to continue\): /);
    const orphan = join(folder, `${ORPHAN}.jsonl`);
    Deno.writeTextFileSync(orphan, '{"type":"summary","summary":"still going"}\n', {
      append: true,
    });
    await dialogue.send("q 1\n");
    const result = await dialogue.finish();
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /was not quarantined: .*\.jsonl changed since it was shown\./);
    assert.ok(pathExists(orphan));
  });
});
