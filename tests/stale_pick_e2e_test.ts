/**
 * A session picked from a list shown before another window deleted it is not
 * resumed: not into the lost-transcript recovery ("most likely Claude Code's
 * 30-day clean-up"), not into the orphan table. Every pick (the numbered
 * menu, a search, the picker) goes through followFolderMoves, which reads
 * the row as it is now. "The other window" is the test, between the list and
 * the typed number (helpers/dialogue.ts).
 */

import assert from "node:assert/strict";
import { startDialogue } from "./helpers/dialogue.ts";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";

for (const args of [[], ["search", "-i", "a"]]) {
  Deno.test(`claudecm ${args.join(" ")}: a session deleted since the list was shown is not resumed`, async () => {
    await inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
      const menu = startDialogue(args, { env: world.env, cwd: world.project });
      await menu.waitFor(/Pick a session \(Enter to quit\): /);
      const deleted = await world.run(["delete", "Beta", "--yes"]);
      assert.equal(deleted.code, 0, deleted.stderr);
      await menu.send("2\n");
      const result = await menu.finish();
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(result.stderr, /'Beta' is no longer in the session list .*nothing resumed/);
      assert.doesNotMatch(result.stdout + result.stderr, /is gone|Multiple conversation files/);
      assert.deepEqual(world.launches(), []);
      assert.deepEqual(world.sessions().map((s) => s.desc), ["Alpha"], "nothing re-added");
    });
  });
}
