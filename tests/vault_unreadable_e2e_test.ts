// A vault that cannot be read is an error, never "no copy" (DESIGN.md 5.11): `vault`, `restore`,
// `vault prune`, D# and a resume of a session whose transcript is gone all say so and change
// nothing, where they used to report the session unprotected, nothing to prune, or offer a delete.
// A resume that needs no vault (its transcript is in its folder) goes on.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { permissionsTestable, runClaudecmUnprivileged } from "./helpers/run_unprivileged.ts";

const A = sessionId(0x11);
const B = sessionId(0x22);

/** Two registered sessions, synced to the vault; returns their project folder. */
async function seedSynced(world: LaunchWorld): Promise<string> {
  const folder = projectDirFor(world.paths, world.project);
  Deno.mkdirSync(folder, { recursive: true });
  for (const id of [A, B]) save(folder, finishedSession({ sessionId: id, cwd: world.project }));
  Deno.writeTextFileSync(
    world.paths.registryFile,
    `${A}|${world.project}|Alpha work|\n${B}|${world.project}|Beta work|\n`,
  );
  world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
  const synced = await world.run(["vault", "sync"]);
  assert.equal(synced.code, 0, synced.stderr);
  return folder;
}

const SAID_EMPTY = /not in the vault yet|has no copy|Nothing to prune|Delete this entry/;

Deno.test("a file where the vault folder should be: every vault answer is an error naming it", async () => {
  const world = createLaunchWorld();
  try {
    const folder = await seedSynced(world);
    Deno.removeSync(world.paths.vaultDir, { recursive: true });
    Deno.writeTextFileSync(world.paths.vaultDir, "not a folder\n");
    const registry = Deno.readTextFileSync(world.paths.registryFile);
    Deno.removeSync(join(folder, `${A}.jsonl`));
    for (const args of [["vault"], ["restore", A], ["vault", "prune"], ["1"]]) {
      const result = await world.run(args);
      assert.equal(result.code, 1, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
      assert.doesNotMatch(result.stdout + result.stderr, SAID_EMPTY, args.join(" "));
      assert.match(result.stderr, /vault.* (is a file|not a directory)/i, args.join(" "));
    }
    const doctor = JSON.parse((await world.run(["doctor", "--json"])).stdout);
    assert.ok(
      doctor.problems.some((p: string) =>
        /vault is a file .*the vault keeps and restores nothing/.test(p)
      ),
      JSON.stringify(doctor.problems),
    );
    const deleted = await world.run([], { stdin: "e\nd2\ndelete\nq\n" });
    assert.notEqual(deleted.code, 0, deleted.stdout);
    assert.ok(pathExists(join(folder, `${B}.jsonl`)), "D# deleted nothing");
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), registry);
    assert.equal(world.launches().length, 0);
    // A session whose transcript is in its folder needs no vault: it resumes.
    world.claudeScenario({ messages: ["carry on"] });
    const resumed = await world.run(["2"], { stdin: "\n\n" });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.deepEqual(world.launches().map((l) => l.argv.slice(1, 3)), [["--resume", B]]);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "a vault the user cannot read: vault, restore and prune say permission denied",
  ignore: !permissionsTestable,
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const folder = await seedSynced(world);
      Deno.removeSync(join(folder, `${A}.jsonl`));
      Deno.chmodSync(world.paths.vaultDir, 0o000);
      for (const args of [["vault"], ["restore", A], ["vault", "prune"]]) {
        const result = await runClaudecmUnprivileged(args, { env: world.env, home: world.dir });
        assert.equal(result.code, 1, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
        assert.doesNotMatch(result.stdout + result.stderr, SAID_EMPTY, args.join(" "));
        assert.match(result.stderr, /permission denied: .*vault/, args.join(" "));
      }
    } finally {
      Deno.chmodSync(world.paths.vaultDir, 0o755);
      world.cleanup();
    }
  },
});
