/**
 * claudecm under a real pseudo-terminal (util-linux `script`): list mode, a
 * session picked by number, and claude started with the terminal on both
 * stdin and stdout, as the real CLI needs to be interactive (spec 14.2).
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { collectOutput } from "./helpers/child.ts";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { HAVE_PTY, shellQuote } from "./helpers/real_claude.ts";
import { seedSessions } from "./helpers/seed.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

Deno.test({
  name:
    "in a real terminal, a number picked in list mode starts claude with a TTY on stdin and stdout",
  ignore: !HAVE_PTY,
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const { main } = seedSessions(world, [{ desc: "First" }, { desc: "Second" }]);
      world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
      world.claudeScenario({ messages: ["carry on"], requireTty: true });
      const command = [Deno.execPath(), "run", "--allow-all", "--quiet", MAIN]
        .map(shellQuote).join(" ");
      const child = new Deno.Command("script", {
        args: ["-qfec", command, "/dev/null"],
        env: { ...world.env, TERM: "dumb" },
        clearEnv: true,
        cwd: world.project,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const result = await collectOutput(child, "2\n");
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /Pick a session \(Enter to quit\): /);
      const [launch] = world.launches();
      assert.deepEqual(launch.argv.slice(1, 3), ["--resume", main[1].guid]);
      assert.deepEqual(launch.tty, { stdin: true, stdout: true });
      assert.equal(world.sessions()[0].guid, main[1].guid);
    } finally {
      world.cleanup();
    }
  },
});
