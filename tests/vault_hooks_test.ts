// When the vault runs (issue 20.2, 20.6): a new session is protected at post-exit; a vault
// that cannot be written costs one line and the command goes on; a vault on another
// file system is kept by copy, and `vault` says so.
import assert from "node:assert/strict";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { makeTempDirOnOtherFileSystem, otherFileSystemAvailable } from "./helpers/other_fs.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { projectDirFor, transcriptPathFor } from "../lib/core/paths.ts";
import { vaultFilesFor } from "../lib/core/session_copies.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { runClaudecm } from "./helpers/run_cli.ts";

Deno.test("a fresh session is hard-linked into the vault when claude exits", async () => {
  const world = createLaunchWorld();
  try {
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    world.claudeScenario({ messages: ["hi"] });
    const fresh = await world.run(["new"], { stdin: "Fresh one\n" });
    assert.equal(fresh.code, 0, fresh.stderr);
    const [row] = world.sessions();
    const transcript = transcriptPathFor(world.paths, world.project, row.guid);
    const kept = vaultFilesFor(world.paths, row).transcript;
    assert.equal(Deno.statSync(kept).ino, Deno.statSync(transcript).ino);
  } finally {
    world.cleanup();
  }
});

Deno.test("a vault that cannot be written: one line naming it, and list still works", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    const id = sessionId(0x51);
    save(folder, finishedSession({ sessionId: id, cwd: world.project }));
    Deno.writeTextFileSync(world.paths.registryFile, `${id}|${world.project}|Kept|\n`);
    // A file where the vault's folder should be: every write into it fails.
    Deno.writeTextFileSync(world.paths.vaultDir, "not a folder");
    const list = await world.run(["list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /Kept/);
    const lines = list.stderr.split("\n").filter((l) => l.includes("vault"));
    assert.equal(lines.length, 1, list.stderr);
    assert.match(lines[0], /The vault could not be updated: .*vault/);
    const sync = await world.run(["vault", "sync"]);
    assert.equal(sync.code, 1);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "a vault on another file system is kept by copy, and vault says so",
  ignore: !otherFileSystemAvailable(),
  fn: async () => {
    const world = createLaunchWorld();
    const elsewhere = makeTempDirOnOtherFileSystem();
    try {
      const folder = projectDirFor(world.paths, world.project);
      Deno.mkdirSync(folder, { recursive: true });
      const id = sessionId(0x61);
      save(folder, finishedSession({ sessionId: id, cwd: world.project }));
      Deno.writeTextFileSync(world.paths.registryFile, `${id}|${world.project}|Far|\n`);
      world.env.CLAUDECM_HOME = elsewhere;
      Deno.writeTextFileSync(`${elsewhere}/sessions.txt`, `${id}|${world.project}|Far|\n`);
      assert.equal((await world.run(["vault", "sync"])).code, 0);
      const status = await world.run(["vault"]);
      assert.match(status.stdout, /Copy mode: hard links could not be made/);
      const json = JSON.parse((await world.run(["vault", "--json"])).stdout);
      assert.deepEqual(json.sessions.map((s: { mode: string }) => s.mode), ["copy"]);
      assert.ok(json.totals.extraBytes > 0, "copies cost disk space");
    } finally {
      Deno.removeSync(elsewhere, { recursive: true });
      world.cleanup();
    }
  },
});

Deno.test("CLAUDECM_VAULT=off: list writes no vault, vault says it is off; restore of a present file is a no-op", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    const id = sessionId(0x71);
    save(folder, finishedSession({ sessionId: id, cwd: world.project }));
    Deno.writeTextFileSync(world.paths.registryFile, `${id}|${world.project}|Here|\n`);
    const off = { ...world.env, CLAUDECM_VAULT: "off" };
    const list = await runClaudecm(["list"], { env: off, cwd: world.project });
    assert.equal(list.code, 0, list.stderr);
    assert.ok(!pathExists(world.paths.vaultDir), "nothing written to the vault");
    const status = await runClaudecm(["vault"], { env: off, cwd: world.project });
    assert.match(status.stdout, /off: CLAUDECM_VAULT=off/);
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    const restored = await world.run(["restore", "1"]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /already in place/);
  } finally {
    world.cleanup();
  }
});
