/**
 * A hostile user's kill -9 (issue 17, "Done means"): P#, D# and the orphan
 * table's `q N` killed at random points, then run again. Afterwards every
 * session's transcript is whole somewhere (its project folder, another one,
 * the backup dir or the quarantine), byte for byte, the registry parses with
 * every row it should have, and the next run finishes and leaves none of the
 * killed run's temporary files behind. The kill points come from a seeded
 * generator; the seed is printed with any failure.
 */

import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { claudecmCommand } from "./helpers/run_cli.ts";
import { seedSessions } from "./helpers/seed.ts";
import { pathExists, readDirOrEmpty } from "../lib/core/fs_checks.ts";
import { projectDirFor, transcriptPathFor } from "../lib/core/paths.ts";
import { archivedSessions, mainSessions, malformedLines } from "../lib/core/registry.ts";
import { readRegistry } from "../lib/store/registry_store.ts";

const SEED = Number(Deno.env.get("HOSTILE_SEED") ?? Date.now() % 100_000);

/** mulberry32: a small seeded generator, so a failing run can be repeated. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every file under `root` with its bytes, by path. */
function filesUnder(root: string): Map<string, Uint8Array> {
  const found = new Map<string, Uint8Array>();
  const walk = (dir: string) => {
    for (const entry of readDirOrEmpty(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (entry.isFile) found.set(path, Deno.readFileSync(path));
    }
  };
  walk(root);
  return found;
}

/** Whether `whole` starts with `part`: a resume after the kill may have appended to it. */
function startsWith(whole: Uint8Array, part: Uint8Array): boolean {
  return whole.length >= part.length && part.every((byte, i) => byte === whole[i]);
}

/** Names of the temporary files a killed copy or write leaves. */
function leftovers(world: LaunchWorld): string[] {
  const roots = [world.paths.projectsDir, world.paths.cmHome, world.paths.quarantineRoot];
  return roots.flatMap((root) =>
    [...filesUnderNames(root)].filter((name) => /\.(?:tmp|partial)-\d+$/.test(name))
  );
}

function filesUnderNames(root: string): string[] {
  const names: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readDirOrEmpty(dir)) {
      names.push(join(dir, entry.name));
      if (entry.isDirectory) walk(join(dir, entry.name));
    }
  };
  walk(root);
  return names;
}

/** Two registered sessions; the first has a large transcript and a sidecar of many files. */
function seedBig(world: LaunchWorld): { guids: string[]; originals: Uint8Array[] } {
  const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
  const first = transcriptPathFor(world.paths, world.project, main[0].guid);
  const line = JSON.stringify({ type: "user", text: "y".repeat(4000) }) + "\n";
  Deno.writeTextFileSync(first, line.repeat(4000), { append: true });
  const sidecar = join(projectDirFor(world.paths, world.project), main[0].guid, "tool-results");
  Deno.mkdirSync(sidecar, { recursive: true });
  for (let i = 0; i < 600; i++) Deno.writeTextFileSync(join(sidecar, `r${i}.txt`), `result ${i}`);
  const originals = main.map((s) =>
    Deno.readFileSync(transcriptPathFor(world.paths, s.dir, s.guid))
  );
  return { guids: main.map((s) => s.guid), originals };
}

/** Each transcript is somewhere, byte for byte, and the registry parses with these rows. */
function assertNothingLost(
  world: LaunchWorld,
  expected: { guids: string[]; originals: Uint8Array[]; rows: string[] },
  context: string,
): void {
  const everywhere = new Map([
    ...filesUnder(world.paths.projectsDir),
    ...filesUnder(world.paths.cmHome),
    ...filesUnder(world.paths.quarantineRoot),
  ]);
  expected.guids.forEach((guid, i) => {
    const copies = [...everywhere].filter(([path]) =>
      basename(path).startsWith(`${guid}.jsonl`) && !/(?:tmp|partial)-\d+$/.test(path)
    );
    assert.ok(
      copies.some(([, bytes]) => startsWith(bytes, expected.originals[i])),
      `${context}: ${guid}'s transcript is whole somewhere (seed ${SEED})`,
    );
  });
  const registry = readRegistry(world.paths);
  assert.deepEqual(malformedLines(registry), [], `${context}: registry parses (seed ${SEED})`);
  assert.deepEqual(
    registeredIds(world).sort(),
    [...expected.rows].sort(),
    `${context}: rows (seed ${SEED})`,
  );
}

/** Run `claudecm` with `stdin`, killing it after `delayMs` (or on `killWhen`). */
async function runKilled(
  world: LaunchWorld,
  stdin: string,
  options: { delayMs?: number; killWhen?: () => boolean },
): Promise<boolean> {
  const child = claudecmCommand([], { env: world.env, cwd: world.project, discardOutput: true })
    .spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close().catch(() => {});
  let done = false;
  child.status.then(() => done = true);
  const deadline = Date.now() + (options.delayMs ?? 15_000);
  while (!done && Date.now() < deadline && !(options.killWhen?.() ?? false)) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (done) return false;
  try {
    child.kill("SIGKILL");
  } catch {
    return false; // it ended by itself between the last poll and the kill
  }
  const status = await child.status;
  // Windows has no signals: the kill is TerminateProcess, which reports exit code 1.
  return Deno.build.os === "windows" ? !status.success : status.signal === "SIGKILL";
}

Deno.test("P# killed while it copies: the next P# finishes and no partial copy stays", async () => {
  const world = createLaunchWorld();
  try {
    const seeded = seedBig(world);
    const b = join(world.dir, "b");
    Deno.mkdirSync(b);
    const target = projectDirFor(world.paths, b);
    const killed = await runKilled(world, `e\np1\n${b}\n`, {
      killWhen: () => readDirOrEmpty(target).some((e) => e.name.includes(".partial-")),
    });
    assert.ok(killed, "killed during the copy");
    assertNothingLost(world, { ...seeded, rows: seeded.guids }, "after the kill");
    const again = await world.run([], { stdin: `e\np1\n${b}\n` });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Path changed: Alpha/);
    assert.deepEqual(leftovers(world), [], "the killed copy's partial files are gone");
    assertNothingLost(world, { ...seeded, rows: seeded.guids }, "after the rerun");
  } finally {
    world.cleanup();
  }
});

Deno.test("a partial copy left in a folder is swept by the orphan scan of a run there", async () => {
  const world = createLaunchWorld();
  try {
    const { main } = seedSessions(world, [{ desc: "Alpha" }]);
    const folder = projectDirFor(world.paths, world.project);
    const dead = 999_999_999;
    Deno.writeTextFileSync(join(folder, `${main[0].guid}.jsonl.partial-${dead}`), "half");
    Deno.mkdirSync(join(folder, `${main[0].guid}.partial-${dead}`, "tool-results"), {
      recursive: true,
    });
    // An index sync killed before its rename (claudecm writes sessions-index.json there too).
    Deno.writeTextFileSync(join(folder, `sessions-index.json.tmp-${dead}`), "{");
    const alive = join(folder, `other.jsonl.partial-${Deno.pid}`);
    Deno.writeTextFileSync(alive, "a running writer's");
    world.claudeScenario({ messages: ["hello"] });
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      readDirOrEmpty(folder).map((e) => e.name).filter((name) => /\.(partial|tmp)-/.test(name)),
      [`other.jsonl.partial-${Deno.pid}`],
      "a dead writer's partial file and folder are gone; a live writer's stays",
    );
  } finally {
    world.cleanup();
  }
});

Deno.test("P# sweeps a dead P#'s partial copy from the target folder, even when the copy there is whole", async () => {
  const world = createLaunchWorld();
  try {
    const { main } = seedSessions(world, [{ desc: "Alpha" }]);
    const b = join(world.dir, "b");
    Deno.mkdirSync(b);
    const target = projectDirFor(world.paths, b);
    // Killed after the transcript's copy was renamed in, while it copied the sidecar folder.
    Deno.mkdirSync(join(target, `${main[0].guid}.partial-999999999`, "tool-results"), {
      recursive: true,
    });
    Deno.copyFileSync(
      transcriptPathFor(world.paths, world.project, main[0].guid),
      join(target, `${main[0].guid}.jsonl`),
    );
    const result = await world.run([], { stdin: `e\np1\n${b}\n` });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Path changed: Alpha/);
    assert.deepEqual(leftovers(world), []);
  } finally {
    world.cleanup();
  }
});

/** What each action types, its arguments, and the rows that stay registered. */
const ACTIONS = {
  "P#": { args: [] as string[], stdin: (b: string) => `e\np1\n${b}\n` },
  "D#": { args: [] as string[], stdin: () => "e\nd2\ndelete\n" },
  // The second session made an orphan in the first one's folder: `resume 1` offers it.
  "q N": { args: ["1"], stdin: () => "q 2\n\n" },
} as const;

Deno.test("P#, D# and q N killed at random points lose nothing, and a rerun finishes", async () => {
  const next = random(SEED);
  const kills: string[] = [];
  for (const name of ["P#", "D#", "q N", "P#", "D#", "q N", "P#", "D#", "q N"] as const) {
    const action = ACTIONS[name];
    const world = createLaunchWorld();
    try {
      world.claudeScenario({ messages: ["hello"] });
      const seeded = seedBig(world);
      const b = join(world.dir, "b");
      Deno.mkdirSync(b);
      if (name === "q N") {
        const first = Deno.readTextFileSync(world.paths.registryFile).split("\n")[0];
        Deno.writeTextFileSync(world.paths.registryFile, `${first}\n`);
      }
      // A whole run takes about 200-400 ms here: the kill lands anywhere in it.
      const delayMs = 30 + next() * 350;
      const child = claudecmCommand([...action.args], {
        env: world.env,
        cwd: world.project,
        discardOutput: true,
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(action.stdin(b)));
      await writer.close().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      try {
        child.kill("SIGKILL");
        kills.push(`${name}@${Math.round(delayMs)}ms`);
      } catch {
        kills.push(`${name} finished first`);
      }
      await child.status;
      const rows = registeredIds(world);
      // D# deletes its session's files, then its row: only the other session must stay.
      const kept = name === "D#"
        ? { guids: [seeded.guids[0]], originals: [seeded.originals[0]] }
        : seeded;
      const expectedRows = name === "q N" ? [seeded.guids[0]] : name === "P#" ? seeded.guids : rows;
      assertNothingLost(world, { ...kept, rows: expectedRows }, `${name} killed`);
      assert.ok(rows.includes(seeded.guids[0]), `${name}: the first row stays (seed ${SEED})`);
      if (name !== "D#" || rows.includes(seeded.guids[1])) {
        const rerun = await world.run([...action.args], { stdin: action.stdin(b) });
        assert.equal(rerun.code, 0, `${name} rerun (seed ${SEED}): ${rerun.stderr}`);
      }
      assert.deepEqual(leftovers(world), [], `${name}: no temporary file left (seed ${SEED})`);
      if (name === "D#") {
        assert.deepEqual(registeredIds(world), [seeded.guids[0]], `D# done (seed ${SEED})`);
      }
    } finally {
      world.cleanup();
    }
  }
  console.log(`seed ${SEED}: ${kills.join(", ")}`);
});

function registeredIds(world: LaunchWorld): string[] {
  const registry = readRegistry(world.paths);
  return [...mainSessions(registry), ...archivedSessions(registry)].map((s) => s.guid);
}

Deno.test("P# killed once the old copy is set aside: the row follows on the next P#, nothing lost", async () => {
  const world = createLaunchWorld();
  try {
    const seeded = seedBig(world);
    const b = join(world.dir, "b");
    Deno.mkdirSync(b);
    const aside = join(world.paths.backupDir, "project", `${seeded.guids[0]}.jsonl`);
    await runKilled(world, `e\np1\n${b}\n`, { killWhen: () => pathExists(aside) });
    assertNothingLost(world, { ...seeded, rows: seeded.guids }, "after the kill");
    const again = await world.run([], { stdin: `e\np1\n${b}\n` });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(world.sessions()[0].dir, b, again.stdout);
    assertNothingLost(world, { ...seeded, rows: seeded.guids }, "after the rerun");
    assert.deepEqual(leftovers(world), []);
  } finally {
    world.cleanup();
  }
});
