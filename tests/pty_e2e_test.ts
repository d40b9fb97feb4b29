/**
 * claudecm under a real pseudo-terminal (util-linux `script`): list mode, a
 * session picked by number, and claude started with the terminal on both
 * stdin and stdout, as the real CLI needs to be interactive (spec 14.2).
 */

import assert from "node:assert/strict";
import { collectOutput } from "./helpers/child.ts";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { HAVE_PTY, shellQuote } from "./helpers/real_claude.ts";
import { claudecmInvocation } from "./helpers/run_cli.ts";
import { seedSessions } from "./helpers/seed.ts";

/** Run claudecm with `args` in a pseudo-terminal, `input` typed; returns what the terminal showed. */
async function runInTerminal(
  world: LaunchWorld,
  args: string[],
  options: { input: string; env?: Record<string, string> },
) {
  const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
  const command = [program, ...leading, ...args].map(shellQuote).join(" ");
  const child = new Deno.Command("script", {
    args: ["-qfec", command, "/dev/null"],
    env: { ...world.env, TERM: "dumb", ...options.env },
    clearEnv: true,
    cwd: world.project,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await collectOutput(child, options.input);
}

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
      // The canonical command: a terminal on stdin makes it list mode.
      const result = await runInTerminal(world, ["list"], { input: "2\n" });
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

Deno.test({
  name: "colour only on a terminal and never with NO_COLOR (spec 13)",
  ignore: !HAVE_PTY,
  fn: async () => {
    const world = createLaunchWorld();
    try {
      seedSessions(world, [{ desc: "First" }]);
      delete world.env.NO_COLOR;
      const coloured = await runInTerminal(world, ["search", "first"], { input: "x\n" });
      const yellow = "\x1b[33m";
      assert.ok(
        coloured.stdout.includes(`${yellow}  Type one of the numbers shown (1)`),
        coloured.stdout,
      );
      const plain = await runInTerminal(world, ["search", "first"], {
        input: "x\n",
        env: { NO_COLOR: "1" },
      });
      assert.match(plain.stdout, /Type one of the numbers shown \(1\)/);
      assert.ok(!plain.stdout.includes(yellow), plain.stdout);
    } finally {
      world.cleanup();
    }
  },
});
