/** Only a resume that ran moves its row to #1; a refused one says why in claude's words. */

import assert from "node:assert/strict";
import { inWorldWithoutCmv, openInAnotherWindow } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { projectDirFor } from "../lib/core/paths.ts";

Deno.test("a resume claude refuses leaves the list order as it was", () =>
  inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "First" }, { desc: "Second" }]);
    world.claudeScenario({ exitCode: 1 });
    const run = await world.run(["2"]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.deepEqual(world.sessions().map((s) => s.guid), main.map((s) => s.guid));
  }));

Deno.test("a resume declined at the live-session question leaves the list order as it was", () =>
  inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "First" }, { desc: "Second" }]);
    openInAnotherWindow(world, main[1].guid);
    const run = await world.run(["2"], { stdin: "n\n" });
    assert.match(run.stderr, /Not resumed/);
    assert.deepEqual(world.sessions().map((s) => s.guid), main.map((s) => s.guid));
    assert.deepEqual(world.launches(), []);
  }));

Deno.test("a resume that ran moves the row to #1, even when claude then exits non-zero", () =>
  inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "First" }, { desc: "Second" }]);
    world.claudeScenario({ messages: ["more work"], exitCode: 1 });
    await world.run(["2"]);
    assert.deepEqual(world.sessions().map((s) => s.guid), [main[1].guid, main[0].guid]);
  }));

Deno.test("-r on a transcript with no message reports claude's own reason, not a tool call", () =>
  inWorldWithoutCmv(async (world) => {
    const id = crypto.randomUUID();
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    const title = { type: "custom-title", customTitle: "x", sessionId: id };
    Deno.writeTextFileSync(`${folder}/${id}.jsonl`, JSON.stringify(title) + "\n");
    const run = await world.run(["-r", id]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`No conversation found with session ID: ${id}`));
    assert.match(run.stderr, /holds no message yet/);
    assert.doesNotMatch(run.stderr, /interrupted tool call/);
  }));

Deno.test("-r on an id claude does not know at all says so in claude's words", () =>
  inWorldWithoutCmv(async (world) => {
    const id = crypto.randomUUID();
    const run = await world.run(["-r", id]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`"No conversation found with session ID: ${id}"`));
  }));
