/**
 * `claudecm new` in a folder with a saved session asks first whether to
 * resume it, and says how many more sessions the folder has (issue 31
 * defect 7).
 */

import assert from "node:assert/strict";
import { join } from "../lib/core/path.ts";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";

/** What a person reads of a run: claudecm's lines are on stderr when stdout is a pipe. */
function shown(result: { stdout: string; stderr: string }): string {
  return result.stdout + result.stderr;
}

Deno.test("new asks to resume before anything else and mentions the folder's other sessions", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["hello"] });
    seedSessions(world, [
      { desc: "Backend" },
      { desc: "Elsewhere", dir: join(world.dir, "elsewhere") },
      { desc: "Backend tests" },
      { desc: "Backend docs" },
    ]);
    const declined = await world.run(["new"], { stdin: "n\nFresh start\n" });
    assert.equal(declined.code, 0, declined.stderr);
    const text = shown(declined);
    assert.match(
      text,
      / {2}Session found: Backend\n {2}2 more sessions here: claudecm list\n {2}Resume this session\? \[Y\/n\]: /,
    );
    assert.doesNotMatch(text, /Rename\?/, "a declined session is not offered a rename");
    assert.equal(world.sessions()[0].desc, "Fresh start");
  });
});

Deno.test("new: yes to resume, then the rename; one other session is said as one", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["hello"] });
    const { main } = seedSessions(world, [{ desc: "Backend" }, { desc: "Backend tests" }]);
    const result = await world.run(["new"], { stdin: "y\nBackend API\n" });
    assert.equal(result.code, 0, result.stderr);
    const text = shown(result);
    assert.match(
      text,
      /1 more session here: claudecm list\n {2}Resume this session\? \[Y\/n\]: {3}Rename\?/,
    );
    assert.deepEqual(world.launches()[0].argv.slice(1, 3), ["--resume", main[0].guid]);
    assert.equal(world.sessions()[0].desc, "Backend API");
  });
});

Deno.test("new with the folder's only session says nothing of others", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["hello"] });
    seedSessions(world, [{ desc: "Backend" }]);
    const result = await world.run(["new"], { stdin: "\n\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(shown(result), /more session/);
  });
});
