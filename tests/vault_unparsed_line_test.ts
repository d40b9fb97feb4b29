// A session that only a line that does not parse names (issue 30 item 13) is still
// protected by the vault, doctor says so, and adopt says why it does not add it; adopt
// names the symlinked transcripts it leaves out (item 6).
import assert from "node:assert/strict";
import { join } from "node:path";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { vaultFilesFor } from "../lib/core/session_copies.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { symlinkIfSupported } from "./helpers/portable.ts";

const A = sessionId(0x11);
const SIX_FIELDS = sessionId(0x22);
const NO_FOLDER = sessionId(0x33);

function seed(world: LaunchWorld): string {
  const folder = projectDirFor(world.paths, world.project);
  Deno.mkdirSync(folder, { recursive: true });
  for (const id of [A, SIX_FIELDS, NO_FOLDER]) {
    save(folder, finishedSession({ sessionId: id, cwd: world.project }));
  }
  Deno.writeTextFileSync(
    world.paths.registryFile,
    `${A}|${world.project}|Alpha work|\n` +
      `${SIX_FIELDS}|${world.project}|Six|fields|on|a line\n` +
      // A line whose second field names no folder at all: the transcript is found by its id.
      `${NO_FOLDER}\n`,
  );
  world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
  return folder;
}

Deno.test("a transcript named only by a line that does not parse is vaulted; doctor and adopt say so", async () => {
  const world = createLaunchWorld();
  try {
    seed(world);
    const synced = await world.run(["vault", "sync", "--json"]);
    assert.equal(synced.code, 0, synced.stderr);
    assert.equal(JSON.parse(synced.stdout).synced, 3);
    for (const guid of [SIX_FIELDS, NO_FOLDER]) {
      const vault = vaultFilesFor(world.paths, { guid, dir: world.project });
      assert.ok(pathExists(vault.transcript), `${guid} is in the vault`);
    }

    const status = JSON.parse((await world.run(["vault", "--json"])).stdout);
    assert.deepEqual(
      status.sessions.map((
        s: { sessionId: string; protected: boolean; unparsedLine: number | null },
      ) => [s.sessionId, s.protected, s.unparsedLine]),
      [[A, true, null], [SIX_FIELDS, true, 2], [NO_FOLDER, true, 3]],
    );
    const shown = await world.run(["vault"]);
    assert.match(shown.stdout, /ok +unlisted line 2 of sessions\.txt +\[link /);

    const doctor = await world.run(["doctor"]);
    assert.match(
      doctor.stdout,
      new RegExp(`line 2: .*\\n +it names session ${SIX_FIELDS}: the vault keeps its transcript`),
    );
    assert.match(doctor.stdout, new RegExp(`it names session ${NO_FOLDER}: the vault keeps`));
    const json = JSON.parse((await world.run(["doctor", "--json"])).stdout);
    assert.deepEqual(
      json.registry.malformedLines.map((l: { sessionId: string; vaulted: boolean }) => [
        l.sessionId,
        l.vaulted,
      ]),
      [[SIX_FIELDS, true], [NO_FOLDER, true]],
    );

    const adopt = await world.run(["adopt", "--all"]);
    assert.equal(adopt.code, 0, adopt.stderr);
    assert.match(
      adopt.stderr,
      new RegExp(`Skipped ${SIX_FIELDS} .*line 2 of the session list names it but does not parse`),
    );
    assert.match(adopt.stdout, /No sessions to adopt but the 2 skipped above\./);
    assert.doesNotMatch(adopt.stdout, /already has every session/);
  } finally {
    world.cleanup();
  }
});

Deno.test("adopt names the symlinked transcripts it leaves out, a dangling one too", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    Deno.writeTextFileSync(world.paths.registryFile, `${A}|${world.project}|Alpha work|\n`);
    const elsewhere = join(world.dir, "elsewhere.jsonl");
    Deno.renameSync(join(folder, `${SIX_FIELDS}.jsonl`), elsewhere);
    Deno.removeSync(join(folder, `${NO_FOLDER}.jsonl`));
    if (!symlinkIfSupported(elsewhere, join(folder, `${SIX_FIELDS}.jsonl`))) return;
    symlinkIfSupported(join(world.dir, "deleted.jsonl"), join(folder, `${NO_FOLDER}.jsonl`));
    const adopt = await world.run(["adopt", "--all"]);
    assert.equal(adopt.code, 0, adopt.stderr);
    assert.match(adopt.stderr, new RegExp(`Skipped ${SIX_FIELDS} .*a symbolic link \\(to `));
    assert.match(adopt.stderr, new RegExp(`Skipped ${NO_FOLDER} .*a symbolic link to nothing`));
    assert.match(adopt.stdout, /No sessions to adopt but the 2 skipped above\./);
  } finally {
    world.cleanup();
  }
});

Deno.test("vault prune removes nothing when the session list's lock is held past the wait", async () => {
  const world = createLaunchWorld();
  try {
    seed(world);
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    // A's row removed: its entry is prunable, but another window holds the lock (it may be
    // registering A again right now).
    Deno.writeTextFileSync(world.paths.registryFile, `${SIX_FIELDS}|${world.project}|Six|\n`);
    const lock = Deno.openSync(world.paths.lockFile, { read: true, write: true, create: true });
    lock.lockSync(true);
    try {
      const pruned = await world.run(["vault", "prune"]);
      assert.equal(pruned.code, 1, pruned.stdout);
      assert.match(
        pruned.stderr,
        /Could not prune the vault: another claudecm held .*nothing was pruned/,
      );
    } finally {
      lock.close();
    }
    const vaultA = vaultFilesFor(world.paths, { guid: A, dir: world.project });
    assert.ok(pathExists(vaultA.transcript), "kept: the registry was not read under the lock");
    assert.equal((await world.run(["vault", "prune"])).code, 0);
    assert.equal(pathExists(vaultA.transcript), false, "pruned once the lock is free");
  } finally {
    world.cleanup();
  }
});
