import assert from "node:assert/strict";
import { createContentSearch } from "../lib/app/picker/content_search.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";

Deno.test("content search: what was said, from the index it builds in the background", async () => {
  const world = createLaunchWorld();
  const t = createTestContext({ env: world.env });
  const content = createContentSearch(t.ctx);
  try {
    const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
    let heard = 0;
    content.start(() => heard++);
    // A picker opened again before the update ended: the latest listener hears of it.
    let later = 0;
    const ready = new Promise<void>((resolve) =>
      content.start(() => {
        later++;
        if (content.status() === undefined) resolve();
      })
    );
    assert.equal(content.status(), "indexing…");
    await ready;
    assert.equal(heard, 0, "the first listener was replaced");
    content.ask("bet");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const matches = content.matches("bet");
    assert.ok(matches !== undefined, "searched once typing paused");
    assert.deepEqual([...matches.keys()], [main[1].guid]);
    assert.equal(matches.get(main[1].guid), "Work on \u0001Bet\u0002a");
    assert.ok(later >= 2);
  } finally {
    content.close();
    t.cleanup();
    world.cleanup();
  }
});
