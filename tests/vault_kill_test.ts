// kill -9 during `claudecm vault sync` at random points, then sync again: every vault
// entry is always a whole earlier or current version (a prefix of its transcript, never
// a half-written file), and the last sync leaves every entry equal and no temp file.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { claudecmCommand } from "./helpers/run_cli.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { vaultFilesFor } from "../lib/core/session_copies.ts";
import { pathExists } from "../lib/core/fs_checks.ts";

const SESSIONS = 12;

function isPrefix(part: Uint8Array, whole: Uint8Array): boolean {
  if (part.length > whole.length) return false;
  for (let i = 0; i < part.length; i++) if (part[i] !== whole[i]) return false;
  return true;
}

/** Names and sizes of every file in the vault, as one string to compare. */
function vaultState(root: string): string {
  const parts: string[] = [];
  const walk = (dir: string) => {
    if (!pathExists(dir)) return;
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else {
        try {
          parts.push(`${path}:${Deno.statSync(path).size}`);
        } catch {
          parts.push(`${path}:gone`);
        }
      }
    }
  };
  walk(root);
  return parts.sort().join("|");
}

function line(n: number): string {
  return JSON.stringify({ type: "user", n, text: "x".repeat(200) }) + "\n";
}

Deno.test("vault sync killed with SIGKILL at random points: no half entry, nothing lost", async () => {
  const world = createLaunchWorld();
  try {
    world.env.CLAUDECM_VAULT = "copy"; // the copy path is the one with bytes in flight
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    const ids = Array.from({ length: SESSIONS }, (_, i) => sessionId(0x100 + i));
    for (const id of ids) {
      Deno.writeTextFileSync(join(folder, `${id}.jsonl`), line(0).repeat(12000));
    }
    Deno.writeTextFileSync(
      world.paths.registryFile,
      ids.map((id, i) => `${id}|${world.project}|S${i}|\n`).join(""),
    );
    const vaultOf = (id: string) => vaultFilesFor(world.paths, { guid: id, dir: world.project });
    const kept = new Map<string, number>();
    for (let round = 0; round < 6; round++) {
      // Claude Code appends between runs, so later syncs take the append path too.
      for (const id of ids) {
        Deno.writeTextFileSync(join(folder, `${id}.jsonl`), line(round + 1).repeat(500), {
          append: true,
        });
      }
      const child = claudecmCommand(["vault", "sync"], {
        env: world.env,
        cwd: world.project,
        discardOutput: true,
        noStdin: true,
      }).spawn();
      // Kill while it writes: once the vault starts changing, at a random moment after.
      const before = vaultState(world.paths.vaultDir);
      const deadline = Date.now() + 10_000;
      while (vaultState(world.paths.vaultDir) === before && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
      try {
        child.kill("SIGKILL");
      } catch {
        // It finished first: also a moment to check.
      }
      await child.status;
      for (const id of ids) {
        const path = vaultOf(id).transcript;
        if (!pathExists(path)) continue;
        const bytes = Deno.readFileSync(path);
        const source = Deno.readFileSync(join(folder, `${id}.jsonl`));
        assert.ok(isPrefix(bytes, source), `round ${round}: ${id} is whole`);
        assert.ok(bytes.length >= (kept.get(id) ?? 0), `round ${round}: ${id} lost nothing`);
        kept.set(id, bytes.length);
      }
    }
    const child = claudecmCommand(["vault", "sync"], { env: world.env, cwd: world.project })
      .spawn();
    child.stdin.close();
    const finished = await child.output();
    assert.equal(finished.code, 0, new TextDecoder().decode(finished.stderr));
    for (const id of ids) {
      const source = Deno.readFileSync(join(folder, `${id}.jsonl`));
      assert.deepEqual(Deno.readFileSync(vaultOf(id).transcript), source, `${id} complete`);
    }
    const leftovers = [...Deno.readDirSync(join(world.paths.vaultDir, ...[]))].flatMap((key) =>
      [...Deno.readDirSync(join(world.paths.vaultDir, key.name))].map((e) => e.name)
    ).filter((name) => /\.tmp-\d+$/.test(name));
    assert.deepEqual(leftovers, [], "no temporary file left behind");
  } finally {
    world.cleanup();
  }
});

Deno.test("a sync killed at bootstrap: the next run's sync removes its temporary files", async () => {
  const world = createLaunchWorld();
  try {
    world.env.CLAUDECM_VAULT = "copy";
    const folder = projectDirFor(world.paths, world.project);
    const id = sessionId(0x200);
    Deno.mkdirSync(join(folder, id, "tool-results"), { recursive: true });
    Deno.writeTextFileSync(join(folder, `${id}.jsonl`), line(0));
    Deno.writeTextFileSync(join(folder, id, "tool-results", "r1.txt"), "result");
    Deno.writeTextFileSync(world.paths.registryFile, `${id}|${world.project}|S|\n`);
    assert.equal((await world.run(["list"])).code, 0);
    // What a sync killed mid-write leaves, and the write it did not finish.
    const vault = vaultFilesFor(world.paths, { guid: id, dir: world.project });
    const stale = [
      `${vault.transcript}.tmp-999999999`,
      join(vault.sidecar, "tool-results", "r2.txt.tmp-999999999"),
    ];
    for (const path of stale) Deno.writeTextFileSync(path, "half");
    Deno.writeTextFileSync(join(folder, id, "tool-results", "r2.txt"), "second result");
    Deno.writeTextFileSync(join(folder, `${id}.jsonl`), line(1), { append: true });
    assert.equal((await world.run(["list"])).code, 0);
    assert.deepEqual(stale.filter(pathExists), [], "the killed sync's temporary files are gone");
  } finally {
    world.cleanup();
  }
});
