/**
 * After an action (rename, the switch to all of claude's sessions), the
 * picker comes back as it was left: the same filter, the same session
 * highlighted, so the Enter that follows resumes the session the user was
 * on, never #1 (a real terminal, tmux).
 */

import assert from "node:assert/strict";
import { exitOf, openPicker, pickerTest, resumed } from "./helpers/picker_terminal.ts";
import { seedSessions } from "./helpers/seed.ts";

pickerTest(
  "a rename from a filter comes back to the filter, the renamed session highlighted",
  async (world) => {
    const { main } = seedSessions(world, [
      { desc: "Alpha docs" },
      { desc: "Beta billing" },
      { desc: "Gamma billing" },
    ]);
    world.claudeScenario({ messages: ["carry on"], requireTty: true });
    const terminal = await openPicker(world, ["list"]);
    try {
      await terminal.keys(["billing"], { literal: true });
      await terminal.waitFor(/^> billing[\s\S]*2\. Beta billing/m);
      await terminal.keys(["Down"]);
      await terminal.waitFor(/^> +3\. Gamma billing/m);
      await terminal.keys(["C-r"]);
      await terminal.waitFor(/New name for 'Gamma billing'/);
      await terminal.keys(["Gamma billing v2"], { literal: true });
      await terminal.keys(["Enter"]);
      const screen = await terminal.waitFor(/^> billing[\s\S]*Enter resume/m);
      assert.match(screen, /^> +3\. Gamma billing v2/m, screen);
      await terminal.keys(["C-g"]);
      await terminal.waitFor(/\^G saved only/);
      assert.match(await terminal.screen(), /^> billing[\s\S]*^> +3\. Gamma billing v2/m);
      await terminal.keys(["Enter"]);
      assert.equal(await exitOf(terminal), 0, await terminal.screen());
      assert.deepEqual(resumed(world), [main[2].guid]);
    } finally {
      await terminal.close();
    }
  },
);

pickerTest(
  "an archive leaves the list as it opens: the session is gone, no filter left on",
  async (world) => {
    seedSessions(world, [{ desc: "Alpha docs" }, { desc: "Beta billing" }]);
    const terminal = await openPicker(world, ["list"]);
    try {
      await terminal.keys(["beta"], { literal: true });
      await terminal.waitFor(/^> +2\. Beta billing/m);
      await terminal.keys(["C-a"]);
      const screen = await terminal.waitFor(/^> _[\s\S]*1\. Alpha docs[\s\S]*Enter resume/m);
      assert.doesNotMatch(screen, /Beta billing/);
      await terminal.keys(["Escape"]);
      assert.equal(await exitOf(terminal), 0);
      assert.deepEqual(world.launches(), []);
    } finally {
      await terminal.close();
    }
  },
);
