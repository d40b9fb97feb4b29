// A transcript that is a symbolic link to nothing (issue 30 item 6) is a missing transcript:
// the list says so, resume offers the vault's copy, and restore replaces the link only when
// the person agrees; a restore that restores nothing exits non-zero.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { vaultFilesFor } from "../lib/core/session_copies.ts";
import { ON_WINDOWS } from "./helpers/portable.ts";

const A = sessionId(0x11);

/** A registered, vaulted session whose transcript was moved by hand, then its target deleted. */
async function brokenLinkWorld(world: LaunchWorld): Promise<{ link: string; kept: Uint8Array }> {
  const folder = projectDirFor(world.paths, world.project);
  Deno.mkdirSync(folder, { recursive: true });
  save(folder, finishedSession({ sessionId: A, cwd: world.project }));
  Deno.writeTextFileSync(world.paths.registryFile, `${A}|${world.project}|Alpha work|\n`);
  world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
  assert.equal((await world.run(["vault", "sync"])).code, 0);
  const link = join(folder, `${A}.jsonl`);
  const kept = Deno.readFileSync(link);
  const moved = join(world.dir, "other disk.jsonl");
  Deno.renameSync(link, moved);
  Deno.symlinkSync(moved, link);
  Deno.removeSync(moved);
  return { link, kept };
}

// Windows symlinks need a privilege the runner may not have, and wine's do not work.
const ignore = ON_WINDOWS;

Deno.test({
  name:
    "a transcript that is a link to nothing: list says so, restore asks and exits 1 unless agreed",
  ignore,
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const { link, kept } = await brokenLinkWorld(world);
      const list = await world.run(["list"]);
      assert.match(list.stdout, /Alpha work \(broken link\)/);
      assert.match(list.stdout, /\(broken link\) = its transcript is a symbolic link to nothing/);
      assert.doesNotMatch(list.stdout, /no access/);
      const doctor = JSON.parse((await world.run(["doctor", "--json"])).stdout);
      assert.deepEqual(doctor.registry.missingTranscripts.map((m: { guid: string }) => m.guid), [
        A,
      ]);
      assert.deepEqual(doctor.registry.unreadableTranscripts, [], "missing, not unreadable");

      for (const [args, stdin] of [[["restore", "1"], ""], [["restore", "1"], "\n"]] as const) {
        const refused = await world.run([...args], { stdin });
        assert.equal(refused.code, 1, `${stdin === "" ? "no answer" : "Enter"}: nothing restored`);
        assert.match(refused.stdout, /is a symbolic link to nothing: .* led to .*other disk/);
        assert.match(refused.stderr, /symbolic link to nothing .*nothing was restored/);
        assert.ok(Deno.lstatSync(link).isSymlink, "the link stays without a yes");
      }
      const json = await world.run(["restore", "1", "--json"], { stdin: "y\n" });
      assert.equal(json.code, 1, "--json never asks");
      assert.ok(Deno.lstatSync(link).isSymlink);

      const agreed = await world.run(["restore", "1"], { stdin: "y\n" });
      assert.equal(agreed.code, 0, agreed.stderr);
      assert.match(agreed.stdout, /Replace the link .* with the vault's copy\? \[y\/N\]/);
      assert.match(agreed.stdout, /Restored 'Alpha work' from the vault/);
      assert.ok(Deno.lstatSync(link).isFile, "a file now, not a link");
      assert.deepEqual(Deno.readFileSync(link), kept);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name: "resume of a transcript that is a link to nothing offers the vault's copy, then resumes it",
  ignore,
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const { link, kept } = await brokenLinkWorld(world);
      world.claudeScenario({ messages: ["carry on"] });
      const resumed = await world.run(["resume", "1"], { stdin: "\n" });
      assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
      assert.match(
        resumed.stderr,
        /Replace the link .* with the vault's copy and resume\? \[Y\/n\]/,
      );
      const launch = world.launches().find((l) => l.argv.includes("--resume"));
      assert.equal(launch?.argv[launch.argv.indexOf("--resume") + 1], A);
      assert.ok(Deno.lstatSync(link).isFile);
      assert.deepEqual(Deno.readFileSync(link).subarray(0, kept.length), kept);
      const vault = vaultFilesFor(world.paths, { guid: A, dir: world.project });
      assert.ok(Deno.lstatSync(vault.transcript).isFile, "the vault keeps its entry");
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name:
    "resume of a link to nothing, the vault's copy declined: the lost-transcript choices, no claude",
  ignore,
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const { link } = await brokenLinkWorld(world);
      const resumed = await world.run(["resume", "1"], { stdin: "n\n3\n" });
      assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
      // What a launching command says goes to stderr when its stdout is not a terminal.
      const said = resumed.stdout + resumed.stderr;
      assert.match(said, /Replace the link .* and resume\? \[Y\/n\]/);
      assert.match(said, /is a symbolic link to nothing: .*\n(.*\n)*.*3\. Cancel/);
      assert.deepEqual(world.launches(), [], "claude is not started on a broken link");
      assert.ok(Deno.lstatSync(link).isSymlink, "declined: the link stays");
    } finally {
      world.cleanup();
    }
  },
});
