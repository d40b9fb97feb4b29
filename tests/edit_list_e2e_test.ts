import assert from "node:assert/strict";
import { join } from "node:path";
import {
  inWorldWithoutCmv,
  type LaunchWorld,
  openInAnotherWindow,
} from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { projectDirFor, transcriptPathFor } from "../lib/core/paths.ts";
import { vaultFilesFor } from "../lib/core/session_copies.ts";
import { escapeRegExp, ON_WINDOWS, symlinkIfSupported } from "./helpers/portable.ts";

const THREE = [{ desc: "Alpha" }, { desc: "Beta" }, { desc: "Gamma" }];

function registryText(world: LaunchWorld): string {
  return Deno.readTextFileSync(world.paths.registryFile);
}

Deno.test("E shows the edit list; R renames; Q returns to the list; the end of input quits", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const result = await world.run([], { stdin: "e\nr2\nBeta renamed\nq\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\n {2}E\. Edit this list\n/);
    assert.doesNotMatch(result.stdout, /View archived/, "no V without archived sessions");
    assert.match(result.stdout, /=== Edit Sessions ===/);
    assert.match(
      result.stdout,
      new RegExp(`\\n {2}2\\. Beta \\[${escapeRegExp(world.project)}\\]\\n`),
    );
    assert.match(
      result.stdout,
      /R# = Rename {2}P# = Path {2}A# = Archive {2}D# = Delete {2}M#,# = Move {2}Q = Done/,
    );
    assert.match(result.stdout, /Renamed: Beta renamed/);
    assert.equal(result.stdout.match(/=== Saved Sessions ===/g)?.length, 2, "back to the list");
    assert.equal(
      registryText(world),
      [
        `${main[0].guid}|${world.project}|Alpha|`,
        `${main[1].guid}|${world.project}|Beta renamed|`,
        `${main[2].guid}|${world.project}|Gamma|`,
      ].map((l) => l + "\n").join(""),
    );
    assert.equal(world.launches().length, 0);
  });
});

Deno.test("A archives to the [archived] section; the list then offers V with the count", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const result = await world.run([], { stdin: "e\na1\n\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Archived: Alpha/);
    assert.match(result.stdout, /\n {2}V\. View archived \(1\)\n/);
    assert.equal(
      registryText(world),
      [
        `${main[1].guid}|${world.project}|Beta|`,
        `${main[2].guid}|${world.project}|Gamma|`,
        "[archived]",
        `${main[0].guid}|${world.project}|Alpha|`,
      ].map((l) => l + "\n").join(""),
    );
    assert.ok(pathExists(transcriptPathFor(world.paths, world.project, main[0].guid)));
  });
});

Deno.test("M#,# moves a session; bad numbers and unknown commands are said and change nothing", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, THREE);
    const result = await world.run([], { stdin: "e\nm3,1\nr9\nm1,7\nzz\nq\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Moved: Gamma to #1/);
    assert.match(result.stdout, /No session #9: the list has 3\./);
    assert.match(result.stdout, /No session #7: the list has 3\./);
    assert.match(result.stdout, /Unknown command\./);
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Gamma", "Alpha", "Beta"]);
  });
});

Deno.test("D needs the typed word: anything else cancels and keeps files and row", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const before = registryText(world);
    const result = await world.run([], { stdin: "e\nd2\nyes\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /This permanently deletes 'Beta'/);
    assert.match(result.stdout, /Type 'delete' to confirm: /);
    assert.match(result.stdout, /Cancelled\./);
    assert.equal(registryText(world), before);
    assert.ok(pathExists(transcriptPathFor(world.paths, world.project, main[1].guid)));
  });
});

Deno.test("D with 'delete' removes the transcript, its sidecar dir, its index entry and its row", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(join(folder, main[1].guid, "subagents"), { recursive: true });
    Deno.writeTextFileSync(
      join(folder, "sessions-index.json"),
      JSON.stringify({ version: 1, entries: main.map((s) => ({ sessionId: s.guid })) }),
    );
    const result = await world.run([], { stdin: "e\nd2\nDELETE\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Deleted: Beta/);
    assert.ok(!pathExists(join(folder, `${main[1].guid}.jsonl`)));
    assert.ok(!pathExists(join(folder, main[1].guid)));
    assert.ok(pathExists(join(folder, `${main[0].guid}.jsonl`)), "only that session");
    const index = JSON.parse(Deno.readTextFileSync(join(folder, "sessions-index.json")));
    assert.deepEqual(
      index.entries.map((e: { sessionId: string }) => e.sessionId).sort(),
      [main[0].guid, main[2].guid].sort(),
    );
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Alpha", "Gamma"]);
    assert.ok(!pathExists(world.paths.quarantineRoot));
  });
});

Deno.test("D whose row cannot be written after its files went says so, never 'Nothing was deleted'", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const folder = projectDirFor(world.paths, world.project);
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    const vaultCopy = vaultFilesFor(world.paths, main[1]).transcript;
    assert.ok(pathExists(vaultCopy));
    // The lock holder's temporary file: a folder there fails the write after the delete.
    Deno.mkdirSync(`${world.paths.registryFile}.tmp`);
    const result = await world.run([], { stdin: "e\nd2\ndelete\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Nothing was deleted/);
    assert.match(
      result.stdout,
      /The files were deleted, but the session list could not be updated \(.*sessions\.txt\.tmp is a folder.*\)\.\n.*The entry is kept, and the vault's copy with it: D# it again/,
    );
    assert.ok(!pathExists(join(folder, `${main[1].guid}.jsonl`)), "what the line says happened");
    // Its row is still there, so the vault's copy is too: the session stays restorable.
    assert.ok(pathExists(vaultCopy), "the vault's copy goes only once the row is gone");
    assert.ok(pathExists(join(folder, `${main[0].guid}.jsonl`)), "only that session");
  });
});

Deno.test("P# whose row cannot be written after the move says where the transcript went", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const b = join(world.dir, "b");
    Deno.mkdirSync(b);
    Deno.mkdirSync(`${world.paths.registryFile}.tmp`);
    const result = await world.run([], { stdin: `e\np2\n${b}\n` });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Nothing was moved/);
    assert.match(
      result.stdout,
      /The move stopped part way: the session list could not be updated \(.*\)\.\n.*The transcript is at .*; the path is unchanged/,
    );
    assert.ok(pathExists(transcriptPathFor(world.paths, b, main[1].guid)), "where the line says");
  });
});

Deno.test("P# waits for another window's P# to finish before it copies anything", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const b = join(world.dir, "b");
    Deno.mkdirSync(b);
    // Another window's P#, holding the lock while it copies.
    const other = await Deno.open(join(world.paths.cmHome, "path-change.lock"), {
      read: true,
      write: true,
      create: true,
    });
    await other.lock(true);
    const running = world.run([], { stdin: `e\np1\n${b}\n` });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const copy = transcriptPathFor(world.paths, b, main[0].guid);
    assert.ok(!pathExists(copy), "nothing copied while the other P# runs");
    other.close();
    const result = await running;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Path changed: Alpha/);
    assert.ok(pathExists(copy));
  });
});

Deno.test("P# whose lock cannot be taken says so and goes on: the path still changes", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, THREE);
    const b = join(world.dir, "b");
    Deno.mkdirSync(b);
    Deno.mkdirSync(join(world.paths.cmHome, "path-change.lock"));
    const result = await world.run([], { stdin: `e\np1\n${b}\n` });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /path-change\.lock.*; going ahead without waiting/);
    assert.match(result.stdout, /Path changed: Alpha/);
  });
});

Deno.test("a session open in a claude window is not deleted", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    openInAnotherWindow(world, main[0].guid);
    const result = await world.run([], { stdin: "e\nd1\ndelete\n" });
    assert.match(result.stdout, /'Alpha' is open in a claude window now; close it first\./);
    assert.ok(pathExists(transcriptPathFor(world.paths, world.project, main[0].guid)));
    assert.equal(world.sessions().length, 3);
  });
});

Deno.test("P changes the folder: the transcript moves to the new key, the old copy to the backup dir", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const moved = join(world.dir, "moved here");
    Deno.mkdirSync(moved);
    const bad = await world.run([], { stdin: `e\np1\n${world.dir}/nowhere\n` });
    assert.match(bad.stdout, /Not a directory: .*nowhere/);
    if (!ON_WINDOWS) { // Windows forbids '|' in a folder name
      const unstorable = join(world.dir, "x|y");
      Deno.mkdirSync(unstorable);
      const refused = await world.run([], { stdin: `e\np1\n${unstorable}\n` });
      assert.match(refused.stdout, /cannot use the folder .*x\|y/);
    }
    assert.equal(world.sessions()[0].dir, world.project);
    const result = await world.run([], { stdin: `e\np1\n${moved}\n` });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`Current path: ${escapeRegExp(world.project)}`));
    assert.match(result.stdout, /Path changed: Alpha -> .*moved here/);
    assert.equal(world.sessions()[0].dir, moved);
    const copied = transcriptPathFor(world.paths, moved, main[0].guid);
    const original = transcriptPathFor(world.paths, world.project, main[0].guid);
    const kept = join(world.paths.backupDir, "project", `${main[0].guid}.jsonl`);
    // The copy, and the record claude's /cd would append: the session lives in the new folder.
    assert.equal(
      Deno.readTextFileSync(copied),
      Deno.readTextFileSync(kept) +
        JSON.stringify({ type: "relocated", sessionId: main[0].guid, relocatedCwd: moved }) + "\n",
    );
    assert.ok(!pathExists(original), "one live copy");
    const recover = await world.run(["recover", "--json", "--limit", "10", "--cwd", moved]);
    assert.deepEqual(
      JSON.parse(recover.stdout).candidates.map((c: { id: string }) => c.id),
      [main[0].guid],
      "recover in the new folder finds it",
    );
    const tree = await world.run(["tree", main[0].guid, "--json"]);
    assert.equal(tree.code, 0, tree.stderr);
    assert.match(tree.stdout, /"to": ".*moved here"/, "the family tree knows of the move");
  });
});

Deno.test("D after a P deletes the copy P set aside in the backup folder too, and lists it first", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const moved = join(world.dir, "moved here");
    Deno.mkdirSync(moved);
    assert.equal((await world.run([], { stdin: `e\np1\n${moved}\n` })).code, 0);
    const kept = join(world.paths.backupDir, "project", `${main[0].guid}.jsonl`);
    assert.ok(pathExists(kept));
    const result = await world.run([], { stdin: "e\nd1\ndelete\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      new RegExp(`set aside in the backup folder:\\s+${escapeRegExp(kept)}`),
    );
    assert.match(result.stdout, /Deleted: Alpha/);
    assert.ok(!pathExists(kept), "no full copy outlives a permanent delete");
    assert.ok(pathExists(world.paths.registryFile));
  });
});

Deno.test({
  name: "D after a P of a session started in / deletes the copy P set aside in backup/root/ too",
  ignore: ON_WINDOWS,
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      const { main } = seedSessions(world, [{ desc: "At the root", dir: "/" }]);
      const moved = join(world.dir, "moved here");
      Deno.mkdirSync(moved);
      assert.equal((await world.run([], { stdin: `e\np1\n${moved}\n` })).code, 0);
      const kept = join(world.paths.backupDir, "root", `${main[0].guid}.jsonl`);
      assert.ok(pathExists(kept), "P# sets the old copy aside in backup/root/");
      const result = await world.run([], { stdin: "e\nd1\ndelete\n" });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Deleted: At the root/);
      assert.ok(!pathExists(kept), "no full copy outlives a permanent delete");
    });
  },
});

Deno.test("A and D refuse a session a second line also names: the second would take its place", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const text = registryText(world);
    // The old scripts could write one session twice; the second line is kept as written.
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${text}${main[0].guid}|${world.project}|Again|\n`,
    );
    for (const stdin of ["e\na1\n", "e\nd1\ndelete\n"]) {
      const result = await world.run([], { stdin });
      assert.match(result.stdout, /Line 4 of the session list also names this session/);
      assert.ok(pathExists(transcriptPathFor(world.paths, world.project, main[0].guid)));
      assert.deepEqual(world.sessions().map((s) => s.desc), ["Alpha", "Beta", "Gamma"]);
    }
  });
});

Deno.test("P refuses to move a session whose transcript cannot be read: the path is unchanged", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, THREE);
    const moved = join(world.dir, "moved here");
    Deno.mkdirSync(moved);
    // A symlink loop stands for any transcript that cannot be looked at (root ignores modes).
    const transcript = transcriptPathFor(world.paths, world.project, main[0].guid);
    Deno.removeSync(transcript);
    if (!symlinkIfSupported(transcript, transcript)) return;
    const result = await world.run([], { stdin: `e\np1\n${moved}\n` });
    assert.match(result.stdout, /Could not copy the transcript: cannot read .*\.jsonl: /);
    assert.match(result.stdout, /The path is unchanged\./);
    assert.equal(world.sessions()[0].dir, world.project);
    assert.ok(!pathExists(projectDirFor(world.paths, moved)), "the folder P made is gone again");
  });
});

Deno.test("V: U unarchives to #1, D deletes for good, and an empty archive says so", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { archived } = seedSessions(world, THREE.slice(0, 1), {
      archived: [{ desc: "Old one" }, { desc: "Older one" }],
    });
    const result = await world.run([], { stdin: "v\nu1\nd1\ndelete\nq\nv\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\n {2}V\. View archived \(2\)\n/);
    assert.match(result.stdout, /=== Archived Sessions ===/);
    assert.match(
      result.stdout,
      new RegExp(`\\n {2}1\\. Old one \\[${escapeRegExp(world.project)}\\] \\d+ KB\\n`),
    );
    assert.match(result.stdout, /U# = Unarchive {2}D# = Delete permanently {2}Q = Back/);
    assert.match(result.stdout, /Unarchived: Old one/);
    assert.match(result.stdout, /Deleted: Older one/);
    assert.match(result.stdout, /No archived sessions\./);
    assert.ok(!pathExists(transcriptPathFor(world.paths, world.project, archived[1].guid)));
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Old one", "Alpha"]);
    assert.ok(!registryText(world).includes("Older one"));
  });
});
