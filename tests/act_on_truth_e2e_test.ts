/**
 * Issue 17 items 1-5: moves and deletes act on what is true when they act.
 * "The other window" is played by the test between a question and its answer
 * (helpers/dialogue.ts): it opens the session in a claude, registers a row or
 * appends to a transcript.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { startDialogue } from "./helpers/dialogue.ts";
import {
  inWorldWithoutCmv,
  type LaunchWorld,
  openInAnotherWindow,
} from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { projectDirFor, transcriptPathFor } from "../lib/core/paths.ts";
import { findSessionCopies } from "../lib/core/session_copies.ts";

function talk(world: LaunchWorld, args: string[] = []) {
  return startDialogue(args, { env: world.env, cwd: world.project });
}

/** A second copy of `guid`'s transcript in another project folder, as an older P# left it. */
function copyElsewhere(world: LaunchWorld, guid: string, folderName: string): string {
  const folder = join(world.paths.projectsDir, folderName);
  Deno.mkdirSync(folder, { recursive: true });
  const target = join(folder, `${guid}.jsonl`);
  Deno.copyFileSync(transcriptPathFor(world.paths, world.project, guid), target);
  return target;
}

/** The registered copy and a second one elsewhere, each with a line the other lacks. */
function divergedCopies(world: LaunchWorld, guid: string): { own: string; other: string } {
  const other = copyElsewhere(world, guid, "-elsewhere");
  const own = transcriptPathFor(world.paths, world.project, guid);
  Deno.writeTextFileSync(own, '{"type":"summary","summary":"own"}\n', { append: true });
  Deno.writeTextFileSync(other, '{"type":"summary","summary":"other"}\n', { append: true });
  return { own, other };
}

function backupFiles(world: LaunchWorld, leaf: string): string[] {
  const dir = join(world.paths.backupDir, leaf);
  return pathExists(dir) ? [...Deno.readDirSync(dir)].map((e) => e.name).sort() : [];
}

Deno.test("P# moves the session: one live copy, and a move there and back keeps the work done there", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["work done in B"] });
    const { main } = seedSessions(world, [{ desc: "Alpha" }]);
    const guid = main[0].guid;
    const a = world.project;
    const b = join(world.dir, "b");
    Deno.mkdirSync(b);
    const there = await world.run([], { stdin: `e\np1\n${b}\n` });
    assert.equal(there.code, 0, there.stderr);
    assert.match(there.stdout, /Path changed: Alpha -> .*[\\/]b/);
    assert.deepEqual(findSessionCopies(world.paths, guid).map((c) => c.folder), [
      projectDirFor(world.paths, b),
    ]);
    assert.deepEqual(backupFiles(world, "project"), [`${guid}.jsonl`], "the old copy is kept");
    const resumed = await world.run(["1"]);
    assert.equal(resumed.code, 0, resumed.stderr);
    const back = await world.run([], { stdin: `e\np1\n${a}\n` });
    assert.equal(back.code, 0, back.stderr);
    const copies = findSessionCopies(world.paths, guid);
    assert.deepEqual(copies.map((c) => c.folder), [projectDirFor(world.paths, a)]);
    assert.match(Deno.readTextFileSync(copies[0].transcript), /work done in B/);
  });
});

Deno.test("a resume continues the copy holding every other one and moves the stale copy aside", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { main } = seedSessions(world, [{ desc: "Alpha" }]);
    const guid = main[0].guid;
    const newer = copyElsewhere(world, guid, "-elsewhere");
    Deno.writeTextFileSync(newer, '{"type":"summary","summary":"only here"}\n', { append: true });
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /'Alpha' had 2 copies; continuing .*-elsewhere/);
    const copies = findSessionCopies(world.paths, guid);
    assert.deepEqual(copies.map((c) => c.transcript), [newer]);
    assert.match(Deno.readTextFileSync(newer), /only here/);
    assert.deepEqual(backupFiles(world, "project"), [`${guid}.jsonl`]);
  });
});

Deno.test("copies that diverged are shown and the user is asked; Enter cancels and moves nothing", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { main } = seedSessions(world, [{ desc: "Alpha" }]);
    const guid = main[0].guid;
    const { own } = divergedCopies(world, guid);
    const result = await world.run(["1"], { stdin: "\n" });
    assert.match(result.stderr, /The copies of 'Alpha' have diverged/);
    assert.match(result.stderr, /Continue which copy\? \[1-2, Enter to cancel\]/);
    assert.match(result.stderr, /Not resumed\./);
    assert.equal(world.launches().length, 0);
    assert.equal(findSessionCopies(world.paths, guid).length, 2);
    const picked = await world.run(["1"], { stdin: "2\n" });
    assert.equal(picked.code, 0, picked.stderr);
    assert.deepEqual(findSessionCopies(world.paths, guid).map((c) => c.transcript), [own]);
    assert.deepEqual(backupFiles(world, "project"), [`${guid}.jsonl`], "the other copy is kept");
  });
});

Deno.test("D# re-checks under the lock: a session opened or appended to during the confirmation is kept", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
    const opened = talk(world);
    await opened.send("e\nd1\n");
    await opened.waitFor(/Type 'delete' to confirm: /);
    openInAnotherWindow(world, main[0].guid);
    await opened.send("delete\n");
    const live = await opened.finish();
    assert.match(live.stdout, /Nothing was deleted: it is open in a claude window now\./);
    assert.ok(pathExists(transcriptPathFor(world.paths, world.project, main[0].guid)));
    Deno.removeSync(world.paths.sessionsDir, { recursive: true });

    const appended = talk(world);
    await appended.send("e\nd2\n");
    await appended.waitFor(/Type 'delete' to confirm: /);
    const beta = transcriptPathFor(world.paths, world.project, main[1].guid);
    Deno.writeTextFileSync(beta, '{"type":"summary","summary":"more"}\n', { append: true });
    await appended.send("delete\n");
    const changed = await appended.finish();
    assert.match(changed.stdout, /Nothing was deleted: .*\.jsonl changed since it was shown\./);
    assert.ok(pathExists(beta));
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Alpha", "Beta"]);
  });
});

Deno.test("D# deletes every copy of the session under the projects root and lists each path", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
    const guid = main[0].guid;
    const other = copyElsewhere(world, guid, "-elsewhere");
    Deno.mkdirSync(join(world.paths.projectsDir, "-elsewhere", guid, "subagents"), {
      recursive: true,
    });
    const result = await world.run([], { stdin: "e\nd1\ndelete\n" });
    assert.equal(result.code, 0, result.stderr);
    const own = transcriptPathFor(world.paths, world.project, guid);
    assert.ok(result.stdout.includes(`    ${own}\n`), result.stdout);
    assert.ok(result.stdout.includes(`    ${other}\n`), result.stdout);
    assert.match(result.stdout, /Deleted: Alpha/);
    assert.deepEqual(findSessionCopies(world.paths, guid), []);
    assert.ok(!pathExists(join(world.paths.projectsDir, "-elsewhere", guid)));
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Beta"]);
  });
});

Deno.test("P# re-checks under the lock: a session opened while the path is typed does not move", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Alpha" }]);
    const b = join(world.dir, "b");
    Deno.mkdirSync(b);
    const dialogue = talk(world);
    await dialogue.send("e\np1\n");
    await dialogue.waitFor(/New path \(Enter to keep\): /);
    openInAnotherWindow(world, main[0].guid);
    await dialogue.send(`${b}\n`);
    const result = await dialogue.finish();
    assert.match(result.stdout, /Nothing was moved: it is open in a claude window now\./);
    assert.equal(world.sessions()[0].dir, world.project);
    assert.deepEqual(findSessionCopies(world.paths, main[0].guid).map((c) => c.folder), [
      projectDirFor(world.paths, world.project),
    ]);
    assert.ok(!pathExists(projectDirFor(world.paths, b)), "the folder P# made is gone again");
  });
});

Deno.test("quarantine re-reads the registry when acting: an orphan registered meanwhile stays", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { main } = seedSessions(world, [{ desc: "Registered" }]);
    const orphan = "0e0e0e0e-0000-4000-8000-00000000beef";
    const folder = projectDirFor(world.paths, world.project);
    Deno.copyFileSync(join(folder, `${main[0].guid}.jsonl`), join(folder, `${orphan}.jsonl`));
    // The orphan is row 1 because it is newer: a copy made in the same millisecond would tie.
    const old = new Date(2026, 0, 1);
    Deno.utimeSync(join(folder, `${main[0].guid}.jsonl`), old, old);
    const dialogue = talk(world, ["1"]);
    await dialogue.waitFor(/Choice \(Enter to continue\): /);
    Deno.writeTextFileSync(world.paths.registryFile, `${orphan}|${world.project}|Adopted|\n`, {
      append: true,
    });
    await dialogue.send("q 1\n");
    const result = await dialogue.finish();
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /was not quarantined: it was added to the session list meanwhile as 'Adopted'\./,
    );
    assert.ok(pathExists(join(folder, `${orphan}.jsonl`)));
    assert.ok(!pathExists(world.paths.quarantineRoot));
  });
});

Deno.test("a live session with no transcript yet is never offered as gone, deleted or replaced", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: [], exitCode: 1 });
    const { main } = seedSessions(world, [{ desc: "Just started", missing: true }]);
    openInAnotherWindow(world, main[0].guid);
    const before = Deno.readTextFileSync(world.paths.registryFile);
    const result = await world.run(["1"], { stdin: "y\ny\n1\n" });
    assert.doesNotMatch(result.stderr, /is gone/);
    assert.doesNotMatch(result.stderr, /Delete this entry/);
    assert.match(result.stderr, /is open in another claude window/);
    assert.match(result.stderr, /It is open in another claude window; the entry is kept\./);
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), before);
  });
});

Deno.test("a lost session that comes to life while a fresh one runs keeps its row", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["starting over"] });
    const { main } = seedSessions(world, [{ desc: "Lost one", missing: true }]);
    const dialogue = talk(world, ["1"]);
    await dialogue.waitFor(/Choice \[1-3\]: /);
    openInAnotherWindow(world, main[0].guid);
    await dialogue.send("1\n");
    const result = await dialogue.finish();
    assert.equal(result.code, 0, result.stderr);
    const guids = world.sessions().map((s) => s.guid);
    assert.equal(guids.length, 2, "a new row, not the live session's row replaced");
    assert.ok(guids.includes(main[0].guid));
  });
});

Deno.test("two equal copies (a P# stopped between copy and move) keep the one the row points at", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const { main } = seedSessions(world, [{ desc: "Alpha" }]);
    const guid = main[0].guid;
    copyElsewhere(world, guid, "-elsewhere");
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(findSessionCopies(world.paths, guid).map((c) => c.transcript), [
      transcriptPathFor(world.paths, world.project, guid),
    ]);
  });
});

Deno.test({
  name: "P# whose old copy cannot be set aside leaves the session as it was, with no second copy",
  // /sys refuses new files (EPERM) even to root: a stand-in for a full or read-only backup dir.
  ignore: Deno.build.os !== "linux" || !pathExists("/sys/kernel"),
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      const { main } = seedSessions(world, [{ desc: "Alpha" }]);
      const b = join(world.dir, "b");
      Deno.mkdirSync(b);
      Deno.mkdirSync(world.paths.backupDir, { recursive: true });
      Deno.symlinkSync("/sys/kernel", join(world.paths.backupDir, "project"));
      const result = await world.run([], { stdin: `e\np1\n${b}\n` });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Nothing was moved: .*\n {2}The path is unchanged\./);
      assert.equal(world.sessions()[0].dir, world.project);
      assert.deepEqual(findSessionCopies(world.paths, main[0].guid).map((c) => c.folder), [
        projectDirFor(world.paths, world.project),
      ]);
      assert.ok(!pathExists(join(projectDirFor(world.paths, b), main[0].guid)));
    });
  },
});

Deno.test("the vault's restore re-checks under the lock: a session deleted while the offer waits stays deleted", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
    const guid = main[0].guid;
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    const transcript = transcriptPathFor(world.paths, world.project, guid);
    Deno.removeSync(transcript); // Claude Code's clean-up.
    const dialogue = talk(world, ["resume", "1"]);
    await dialogue.waitFor(/Restore it from the vault and resume\? \[Y\/n\]: /);
    // Another window deletes the session (its row; the vault copy stays for this test).
    Deno.writeTextFileSync(world.paths.registryFile, `${main[1].guid}|${world.project}|Beta|\n`);
    await dialogue.send("\n");
    const result = await dialogue.finish();
    assert.match(result.stderr, /Nothing was restored: it is no longer in the session list\./);
    assert.equal(result.code, 1, result.stderr);
    assert.ok(!pathExists(transcript), "the deleted session does not come back");
    assert.deepEqual(world.launches(), []);
  });
});

Deno.test("keeping one copy re-checks the row's folder: a row moved while the user picks sets nothing aside", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Alpha" }]);
    const guid = main[0].guid;
    const { own, other } = divergedCopies(world, guid);
    const moved = join(world.dir, "moved");
    Deno.mkdirSync(moved);
    const dialogue = talk(world, ["1"]);
    await dialogue.waitFor(/Continue which copy\? \[1-2, Enter to cancel\]: /);
    // Another window points the row at another folder: the choice offered is stale.
    Deno.writeTextFileSync(world.paths.registryFile, `${guid}|${moved}|Alpha|\n`);
    await dialogue.send("2\n");
    const result = await dialogue.finish();
    assert.match(
      result.stderr,
      /not set aside: another window changed its folder meanwhile \(now .*moved\)\./,
    );
    assert.deepEqual(
      findSessionCopies(world.paths, guid).map((c) => c.transcript).sort(),
      [
        other,
        own,
      ].sort(),
    );
    assert.equal(world.launches().length, 0);
  });
});
