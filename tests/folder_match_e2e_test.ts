import assert from "node:assert/strict";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { sessionId } from "./helpers/claude_home.ts";

const GUID = sessionId(0xf1);
const QUIET_CMV = {
  benchmark: { preTrimTokens: 100, reductionPercent: 1, breakEvenTurns: null },
};
/** Symlinks need privileges on Windows. */
const ignore = Deno.build.os === "windows";

/** A transcript for GUID in the project, and a symlink `<world>/link` to the project. */
function seed(world: LaunchWorld): string {
  const folder = projectDirFor(world.paths, world.project);
  Deno.mkdirSync(folder, { recursive: true });
  save(folder, finishedSession({ sessionId: GUID, cwd: world.project }));
  const link = `${world.dir}/link`;
  Deno.symlinkSync(world.project, link);
  world.claudeScenario({ messages: ["carry on"] });
  world.cmvScenario(QUIET_CMV);
  return link;
}

Deno.test({
  name: "claudecm new finds its folder's row stored through a symlink or with a trailing slash",
  ignore,
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const link = seed(world);
      const cases = [
        { stored: link, cwd: world.project, pwd: undefined },
        { stored: `${world.project}/`, cwd: world.project, pwd: undefined },
        { stored: `${link}//`, cwd: world.project, pwd: world.project },
        // The shell's logical PWD is a symlink; the row holds the physical path.
        { stored: world.project, cwd: link, pwd: link },
      ];
      for (const { stored, cwd, pwd } of cases) {
        Deno.writeTextFileSync(world.paths.registryFile, `${GUID}|${stored}|Saved work|\n`);
        if (pwd === undefined) delete world.env.PWD;
        else world.env.PWD = pwd;
        const before = world.launches().length;
        const result = await world.run(["n"], { cwd, stdin: "\n\n" });
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stderr, /Session found: Saved work/, stored);
        assert.doesNotMatch(result.stderr, /No session entry found/);
        const launches = world.launches().slice(before);
        assert.deepEqual(launches.map((l) => l.argv.slice(1, 3)), [["--resume", GUID]], stored);
        assert.deepEqual(world.sessions().map((s) => [s.guid, s.dir]), [[GUID, stored]]);
      }
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name: "a new session started in a symlinked folder is saved under the shell's PWD",
  ignore,
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const link = seed(world);
      Deno.writeTextFileSync(world.paths.registryFile, "");
      world.env.PWD = link;
      const logical = await world.run(["n"], { cwd: link, stdin: "Via link\n" });
      assert.equal(logical.code, 0, logical.stderr);
      assert.deepEqual(world.sessions().map((s) => [s.dir, s.desc]), [[link, "Via link"]]);
      // A PWD naming another directory (stale, or set by hand) is not where the user is.
      Deno.writeTextFileSync(world.paths.registryFile, "");
      world.env.PWD = world.dir;
      const stale = await world.run(["n"], { cwd: link, stdin: "Physical\n" });
      assert.equal(stale.code, 0, stale.stderr);
      assert.deepEqual(world.sessions().map((s) => [s.dir, s.desc]), [
        [world.project, "Physical"],
      ]);
    } finally {
      world.cleanup();
    }
  },
});
