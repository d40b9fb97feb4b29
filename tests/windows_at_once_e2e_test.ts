/**
 * A hostile user's windows (issue 17, "Done means"): three `adopt --all`,
 * two edit-list renames, a `new`, a `resume N`, two `find`s that build the
 * index and two `vault sync`s, all at once. No row is lost or duplicated, and
 * each adopt reports only what it added.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { projectDirFor, transcriptPathFor } from "../lib/core/paths.ts";
import { findSessionCopies } from "../lib/core/session_copies.ts";
import { archivedSessions, mainSessions, malformedLines } from "../lib/core/registry.ts";
import { readRegistry } from "../lib/store/registry_store.ts";

const REGISTERED = 12;
const UNREGISTERED = 24;

Deno.test("eleven windows at once: no row lost or duplicated, and adopt counts only its own", () =>
  inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["work from a window"] });
    const specs = Array.from({ length: REGISTERED }, (_, i) => ({ desc: `Row ${i + 1}` }));
    const { main } = seedSessions(world, specs);
    const unregistered: string[] = [];
    for (let i = 0; i < UNREGISTERED; i++) {
      const dir = join(world.dir, `folder${i % 3}`);
      Deno.mkdirSync(dir, { recursive: true });
      const folder = projectDirFor(world.paths, dir);
      Deno.mkdirSync(folder, { recursive: true });
      const sessionId = `0ad0be00-0000-4000-8000-${String(i + 1).padStart(12, "0")}`;
      save(folder, finishedSession({ sessionId, cwd: dir, ask: `Orphan work ${i}` }));
      unregistered.push(sessionId);
    }
    const fresh = join(world.dir, "fresh");
    Deno.mkdirSync(fresh);
    const runs = await Promise.all([
      world.run(["adopt", "--all"]),
      world.run(["adopt", "--all"]),
      world.run(["adopt", "--all"]),
      world.run([], { stdin: "e\nr3\nRenamed three\n\n" }),
      world.run([], { stdin: "e\nr4\nRenamed four\n\n" }),
      world.run(["new"], { cwd: fresh, stdin: "Fresh one\n" }),
      world.run(["resume", "2"], { stdin: "\n" }),
      world.run(["find", "Orphan"]),
      world.run(["vault", "sync"]),
      world.run(["find", "work"]),
      world.run(["vault", "sync"]),
    ]);
    const summary = runs.map((r) => `${r.code}: ${r.stderr.trim()}`).join("\n");
    for (const run of runs) assert.equal(run.code, 0, summary);
    const registry = readRegistry(world.paths);
    assert.deepEqual(malformedLines(registry), []);
    const rows = [...mainSessions(registry), ...archivedSessions(registry)];
    const guids = rows.map((row) => row.guid);
    assert.equal(new Set(guids).size, guids.length, `no duplicate row:\n${guids.join("\n")}`);
    for (const guid of [...main.map((s) => s.guid), ...unregistered]) {
      assert.ok(guids.includes(guid), `${guid} is registered`);
    }
    assert.equal(rows.length, REGISTERED + UNREGISTERED + 1, "every row, plus the new one");
    assert.ok(rows.some((row) => row.desc === "Fresh one"));
    const shown = `${rows.map((row) => `${row.guid} ${row.desc}`).join("\n")}\n` +
      runs.slice(3, 5).map((r) => r.stdout).join("\n----\n");
    // Numbers are what each window saw: `new` and the resume reorder the list meanwhile, so
    // both renames may name one session, and then the later one stands.
    const targets = runs.slice(3, 5).map((r) => /New name for '([^']*)'/.exec(r.stdout)?.[1]);
    const names = rows.filter((row) => row.desc.startsWith("Renamed ")).map((row) => row.desc);
    const oneSession = targets[0] === targets[1] || targets[1] === "Renamed three" ||
      targets[0] === "Renamed four";
    assert.equal(names.length, oneSession ? 1 : 2, shown);
    const added = runs.slice(0, 3).map((r) => Number(/Added (\d+)/.exec(r.stdout)?.[1] ?? 0));
    assert.equal(added.reduce((a, b) => a + b, 0), UNREGISTERED, `adopt said ${added}`);
  }));

Deno.test("three windows move one session to three folders at once: one wins, one live copy", () =>
  inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
    const guid = main[0].guid;
    const original = Deno.readFileSync(transcriptPathFor(world.paths, world.project, guid));
    const targets = ["b", "c", "d"].map((name) => join(world.dir, name));
    for (const dir of targets) Deno.mkdirSync(dir);
    const runs = await Promise.all(
      targets.map((dir) => world.run([], { stdin: `e\np1\n${dir}\n` })),
    );
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const rows = world.sessions();
    assert.deepEqual(rows.map((row) => row.guid).sort(), main.map((s) => s.guid).sort());
    const row = rows.find((s) => s.guid === guid)!;
    const copies = findSessionCopies(world.paths, guid);
    const outputs = runs.map((run) => run.stdout).join("\n----\n");
    assert.deepEqual(copies.map((c) => c.folder), [projectDirFor(world.paths, row.dir)], outputs);
    // The original bytes, then a `relocated` record per P# that went through, the last one
    // naming the folder the row now holds.
    const live = Deno.readFileSync(copies[0].transcript);
    assert.deepEqual(live.subarray(0, original.length), original);
    const records = new TextDecoder().decode(live.subarray(original.length)).split("\n")
      .filter((line) => line !== "").map((line) => JSON.parse(line));
    assert.ok(records.length >= 1, outputs);
    for (const record of records) assert.equal(record.type, "relocated");
    assert.equal(records.at(-1).relocatedCwd, row.dir);
    assert.ok(runs.some((run) => /Path changed: Alpha/.test(run.stdout)), outputs);
  }));

// Six P#s of one session, a resume, a D# and an adopt at once, a few times over (each round
// interleaves differently). Found: a P# refused after another window moved the old copy kept
// its own copy as "the live one" (a second copy, which outlived a D#); a window setting copies
// aside kept a P#'s passing copy and moved the registered one away (the row had moved meanwhile);
// a resume restored a session from the vault while a D# deleted it.
Deno.test("six windows move, resume, delete and adopt one session at once: deleted means no copy, kept means one in its folder", async () => {
  for (let round = 0; round < 3; round++) {
    await inWorldWithoutCmv(async (world) => {
      const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
      const guid = main[0].guid;
      const targets = ["b", "c", "d", "e", "f", "g"].map((name) => join(world.dir, name));
      for (const dir of targets) Deno.mkdirSync(dir);
      const runs = await Promise.all([
        ...targets.map((dir) => world.run([], { stdin: `e\np1\n${dir}\n` })),
        world.run(["1"], { stdin: "\n\n\n" }),
        world.run([], { stdin: "e\nd1\ndelete\n\n" }),
        world.run(["adopt", "--all"]),
      ]);
      const outputs = runs.map((run) => run.stdout + run.stderr).join("\n----\n");
      runs.forEach((run, i) => {
        // Which window, first: the outputs are long, and a runner may cut them.
        assert.ok(run.code === 0 || run.code === 1, `window ${i} exited ${run.code}\n${outputs}`);
        assert.doesNotMatch(run.stderr, /internal error/, `window ${i}\n${outputs}`);
      });
      const row = world.sessions().find((s) => s.guid === guid);
      const copies = findSessionCopies(world.paths, guid).map((copy) => copy.folder);
      const expected = row === undefined ? [] : [projectDirFor(world.paths, row.dir)];
      // What was left first: the windows' outputs are long, and a runner may cut them.
      const left = `copies ${JSON.stringify(copies)}, row ${JSON.stringify(row ?? null)}`;
      assert.deepEqual(copies, expected, `round ${round}: ${left}\n${outputs}`);
    });
  }
});

// The user moved the project folder; two windows run `claudecm move` for it at once while others
// P# a session out of it, rename one, sync the vault, adopt and list. Found: the second move died
// on "No such file or directory" while it planned (the first was renaming the files it listed).
Deno.test("two moves of one folder at once, among other windows: one line each, and a rerun finishes", async () => {
  for (let round = 0; round < 3; round++) {
    await inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }, { desc: "Gamma" }]);
      const moved = `${world.project}-moved`;
      Deno.renameSync(world.project, moved);
      const other = join(world.dir, "other");
      Deno.mkdirSync(other);
      const cwd = world.dir;
      const runs = await Promise.all([
        world.run(["move", world.project, moved], { stdin: "y\n", cwd }),
        world.run(["move", world.project, moved], { stdin: "y\n", cwd }),
        world.run(["vault", "sync"], { cwd }),
        world.run([], { stdin: `e\np2\n${other}\n\n`, cwd }),
        world.run([], { stdin: "e\nr3\nRenamed\n\n", cwd }),
        world.run(["adopt", "--all"], { cwd }),
        world.run(["list", "--json"], { cwd }),
      ]);
      const outputs = runs.map((run) => run.stdout + run.stderr).join("\n----\n");
      for (const run of runs) assert.doesNotMatch(run.stderr, /internal error/, outputs);
      // A move stopped halfway by another window says: run it again to finish.
      const again = await world.run(["move", world.project, moved], { stdin: "y\n", cwd });
      assert.equal(again.code, 0, again.stdout + again.stderr);
      const rows = world.sessions();
      assert.equal(rows.length, 3, outputs);
      for (const row of rows) {
        const copies = findSessionCopies(world.paths, row.guid).map((copy) => copy.folder);
        assert.deepEqual(copies, [projectDirFor(world.paths, row.dir)], `${row.desc}\n${outputs}`);
      }
    });
  }
});

// Orphans quarantined from two orphan tables, adopted, picked in `new`, searched and listed, all
// at once. Found: adopt registered a transcript another window had just quarantined (a row for
// nothing, shown as missing).
Deno.test("orphans quarantined, adopted and picked at once: every row has its one copy, no row twice", async () => {
  const orphans = [1, 2, 3].map((n) => `0e0e0000-0000-4000-8000-00000000000${n}`);
  for (let round = 0; round < 3; round++) {
    await inWorldWithoutCmv(async (world) => {
      const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
      const folder = projectDirFor(world.paths, world.project);
      for (const id of orphans) {
        save(folder, finishedSession({ sessionId: id, cwd: world.project, ask: `Orphan ${id}` }));
      }
      world.claudeScenario({ messages: ["carry on"] });
      const runs = await Promise.all([
        world.run(["1"], { stdin: "q all\n\n\n" }),
        world.run(["2"], { stdin: "q 1\n\n\n" }),
        world.run(["adopt", "--all"]),
        world.run(["n"], { stdin: "1\nFound in new\n\n\n" }),
        world.run(["find", "--json", "Orphan"]),
        world.run(["list", "--json"]),
      ]);
      const outputs = runs.map((run) => run.stdout + run.stderr).join("\n----\n");
      for (const run of runs) assert.doesNotMatch(run.stderr, /internal error/, outputs);
      const registry = readRegistry(world.paths);
      assert.deepEqual(malformedLines(registry), [], outputs);
      const rows = [...mainSessions(registry), ...archivedSessions(registry)];
      assert.equal(new Set(rows.map((r) => r.guid)).size, rows.length, `a row twice\n${outputs}`);
      for (const id of [...main.map((s) => s.guid), ...orphans]) {
        const row = rows.find((r) => r.guid === id);
        if (row === undefined) continue; // A quarantined orphan: in the backup, not listed.
        const copies = findSessionCopies(world.paths, id).map((copy) => copy.folder);
        assert.deepEqual(copies, [projectDirFor(world.paths, row.dir)], `${id}\n${outputs}`);
      }
    });
  }
});

// Three `new`s in the folder of a session another window resumes (its orphan table quarantining),
// with adopt, rescue and vault prune. Found: a resume whose claude exited before its manifest was
// read took another window's fresh session in the folder for its fork and pointed its row there,
// so two rows named one session.
Deno.test("fresh sessions started beside a resume never pass for its fork: no row twice", async () => {
  for (let round = 0; round < 3; round++) {
    await inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "Alpha" }]);
      world.claudeScenario({ messages: ["carry on"] });
      const runs = await Promise.all([
        ...["one", "two", "three"].map((name) =>
          world.run(["new"], { stdin: `n\nFresh ${name}\n\n\n` })
        ),
        world.run(["1"], { stdin: "q all\n\n\n" }),
        world.run(["adopt", "--all"]),
        world.run(["rescue", "--all"], { stdin: "\n" }),
        world.run(["vault", "prune"]),
      ]);
      const outputs = runs.map((run) => run.stdout + run.stderr).join("\n----\n");
      for (const run of runs) assert.doesNotMatch(run.stderr, /internal error/, outputs);
      const registry = readRegistry(world.paths);
      const rows = [...mainSessions(registry), ...archivedSessions(registry)];
      assert.equal(new Set(rows.map((r) => r.guid)).size, rows.length, `a row twice\n${outputs}`);
      for (const row of rows) {
        const copies = findSessionCopies(world.paths, row.guid).map((copy) => copy.folder);
        assert.deepEqual(copies, [projectDirFor(world.paths, row.dir)], `${row.desc}\n${outputs}`);
      }
    });
  }
});
