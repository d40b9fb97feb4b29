/**
 * claudecm's own colours reach a real terminal as colours, on stdout and on
 * stderr, while control characters from a session's name stay visible text
 * (DESIGN.md 5.17; issue 31 defect 1). Read through tmux as a person sees it.
 */

import assert from "node:assert/strict";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { openTmux, tmuxAvailable } from "./helpers/tmux.ts";
import { ON_WINDOWS } from "./helpers/portable.ts";

const IGNORE = ON_WINDOWS || !tmuxAvailable();
/** The code lib/ui/output.ts starts a red line with, as capture-pane -e gives it back. */
const RED = "\x1b[31m";

/** The world's environment with colour on (.ci/run exports NO_COLOR=1). */
function colourEnv(world: LaunchWorld): Record<string, string> {
  const env = { ...world.env };
  delete env.NO_COLOR;
  return env;
}

function seedHostile(world: LaunchWorld): void {
  seedSessions(world, [{ desc: "Ev\x1b]0;x\x07il" }, { desc: "Plain" }]);
}

Deno.test({
  name: "terminal: a red line on stderr shows as red, a name's escape as text",
  ignore: IGNORE,
  fn: async () => {
    const world = createLaunchWorld();
    seedHostile(world);
    const terminal = await openTmux(["resume", "9"], { env: colourEnv(world), cwd: world.project });
    try {
      const screen = await terminal.waitFor(/No session #9/);
      assert.doesNotMatch(screen, /\^\[\[/, "a colour code shown as text");
      assert.match(screen, /Ev\^\[\]0;x\^Gil/, "the name's escape made visible");
      const coloured = await terminal.screen({ escapes: true });
      assert.ok(coloured.includes(`${RED}  No session #9: the list has 2.`), coloured);
    } finally {
      await terminal.close();
      world.cleanup();
    }
  },
});

Deno.test({
  name: "terminal: a red line on stdout (list mode) shows as red",
  ignore: IGNORE,
  fn: async () => {
    const world = createLaunchWorld();
    seedHostile(world);
    const terminal = await openTmux(["list", "--numbers"], {
      env: colourEnv(world),
      cwd: world.project,
    });
    try {
      await terminal.waitFor(/Pick a session/);
      await terminal.keys(["99", "Enter"], {});
      const screen = await terminal.waitFor(/No session #99/);
      assert.doesNotMatch(screen, /\^\[\[/, "a colour code shown as text");
      assert.match(screen, /Ev\^\[\]0;x\^Gil/);
      const coloured = await terminal.screen({ escapes: true });
      assert.ok(coloured.includes(`${RED}  No session #99`), coloured);
      await terminal.keys(["Enter"]);
    } finally {
      await terminal.close();
      world.cleanup();
    }
  },
});
