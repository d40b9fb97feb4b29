// CLAUDECM_VAULT=copy (issue 30 item 1): entries the default mode linked become copies at the
// next sync, `vault` says how many are still links, and a restore under copy mode copies, so
// a transcript cut short in place never takes the vault's bytes with it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { vaultFilesFor } from "../lib/core/session_copies.ts";
import { syncFileToVault } from "../lib/store/vault_file_sync.ts";

const A = sessionId(0x11);
const B = sessionId(0x22);

/** Two registered sessions; B has a sidecar file. */
function seed(world: LaunchWorld): string {
  const folder = projectDirFor(world.paths, world.project);
  Deno.mkdirSync(join(folder, B, "tool-results"), { recursive: true });
  for (const id of [A, B]) save(folder, finishedSession({ sessionId: id, cwd: world.project }));
  Deno.writeTextFileSync(join(folder, B, "tool-results", "out.txt"), "tool output\n");
  Deno.writeTextFileSync(
    world.paths.registryFile,
    `${A}|${world.project}|Alpha work|\n${B}|${world.project}|Beta work|\n`,
  );
  world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
  return folder;
}

function sameFile(a: string, b: string): boolean {
  return Deno.statSync(a).ino === Deno.statSync(b).ino;
}

Deno.test("vault file: copy mode turns a linked vault file into bytes of its own", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-vault-copy-" });
  try {
    const source = join(dir, "s.jsonl");
    const target = join(dir, "vault", "s.jsonl");
    Deno.writeTextFileSync(source, "line 1\nline 2\n");
    assert.equal(syncFileToVault(source, target, { forceCopy: false })?.mode, "link");
    assert.ok(sameFile(source, target));
    const converted = syncFileToVault(source, target, { forceCopy: true });
    assert.deepEqual(converted, { mode: "copy", bytes: 14, changed: true });
    assert.ok(!sameFile(source, target), "a file of its own");
    assert.equal(syncFileToVault(source, target, { forceCopy: true })?.changed, false);
    Deno.truncateSync(source, 0);
    assert.equal(Deno.readTextFileSync(target), "line 1\nline 2\n");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("CLAUDECM_VAULT=copy: entries linked before are copied, counted until then; restore copies", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    const linked = await world.run(["vault", "sync"]);
    assert.equal(linked.code, 0, linked.stderr);
    const vaultA = vaultFilesFor(world.paths, { guid: A, dir: world.project });
    const vaultB = vaultFilesFor(world.paths, { guid: B, dir: world.project });
    const sidecarB = join(vaultB.sidecar, "tool-results", "out.txt");
    assert.ok(sameFile(vaultA.transcript, join(folder, `${A}.jsonl`)), "the default links");

    world.env.CLAUDECM_VAULT = "copy";
    const before = await world.run(["vault"]);
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /2 entries are still hard links, made before CLAUDECM_VAULT=copy/);
    assert.match(before.stdout, /still a hard link \(made before copy mode\)/);

    const synced = await world.run(["vault", "sync", "--json"]);
    assert.equal(synced.code, 0, synced.stderr);
    assert.equal(JSON.parse(synced.stdout).byCopy, 2);
    assert.ok(!sameFile(vaultA.transcript, join(folder, `${A}.jsonl`)), "A's entry is a copy");
    assert.ok(!sameFile(vaultB.transcript, join(folder, `${B}.jsonl`)), "B's entry is a copy");
    assert.ok(!sameFile(sidecarB, join(folder, B, "tool-results", "out.txt")), "and its sidecar");
    const report = JSON.parse((await world.run(["vault", "--json"])).stdout);
    assert.deepEqual([report.totals.linked, report.totals.copied], [0, 2]);
    const after = await world.run(["vault"]);
    assert.doesNotMatch(after.stdout, /still hard links|hard links could not be made/);

    // A transcript cut short in place: the vault still has every byte.
    const kept = Deno.readFileSync(vaultA.transcript);
    Deno.truncateSync(join(folder, `${A}.jsonl`), 0);
    assert.deepEqual(Deno.readFileSync(vaultA.transcript), kept);

    // Claude Code's clean-up takes B; a restore under copy mode shares no file with the vault.
    Deno.removeSync(join(folder, `${B}.jsonl`));
    Deno.removeSync(join(folder, B), { recursive: true });
    const restored = await world.run(["restore", B]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.ok(!sameFile(vaultB.transcript, join(folder, `${B}.jsonl`)), "restored by copy");
    assert.ok(!sameFile(sidecarB, join(folder, B, "tool-results", "out.txt")));
    assert.deepEqual(
      Deno.readFileSync(join(folder, `${B}.jsonl`)),
      Deno.readFileSync(vaultB.transcript),
    );
  } finally {
    world.cleanup();
  }
});
