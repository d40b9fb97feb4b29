import assert from "node:assert/strict";
import { join } from "node:path";
import { inMoveWorld, type MoveWorld } from "./helpers/move_world.ts";
import { projectDirFor } from "../lib/core/paths.ts";

Deno.test("resume N on a gone folder: Enter cancels, nothing launches, nothing changes", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    const result = await world.run(["resume", "1"], { stdin: "\n" });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /Where is it now\? New path \(Enter cancels\)/);
    assert.match(result.stdout, /Not resumed/);
    assert.deepEqual(world.launches(), []);
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), world.registryText);
  });
});

Deno.test("resume N on a gone folder: a path given moves the project, then resumes there", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    world.claudeScenario({ messages: ["here again"] });
    const result = await world.run(["resume", "1"], { stdin: `${world.renamed}\n` });
    assert.equal(result.code, 0, result.stderr);
    const [launch] = world.launches();
    assert.equal(launch.cwd, world.renamed);
    assert.deepEqual(launch.argv.slice(1, 3), ["--resume", world.ids.main]);
    assert.equal(world.sessions()[0].dir, world.renamed);
    assert.equal(
      world.sessions().find((s) => s.guid === world.ids.sub)?.dir,
      join(world.renamed, "sub"),
    );
  });
});

/** Claude's /cd: the transcript renamed into `to`'s key, optionally with the `relocated` record. */
function claudeMoved(world: MoveWorld, to: string, record: boolean): void {
  const source = join(projectDirFor(world.paths, world.old), `${world.ids.main}.jsonl`);
  const folder = projectDirFor(world.paths, to);
  Deno.mkdirSync(folder, { recursive: true });
  const target = join(folder, `${world.ids.main}.jsonl`);
  Deno.renameSync(source, target);
  const line = record
    ? { type: "relocated", sessionId: world.ids.main, relocatedCwd: to }
    : { type: "user", sessionId: world.ids.main, cwd: to, timestamp: "2026-11-30T10:00:00.000Z" };
  Deno.writeTextFileSync(target, JSON.stringify(line) + "\n", { append: true });
}

for (const record of [true, false]) {
  Deno.test(`a session claude moved with /cd (${record ? "relocated record" : "newer cwd only"}): the row follows, resume starts there`, async () => {
    await inMoveWorld(async (world) => {
      const elsewhere = join(world.dir, "elsewhere");
      Deno.mkdirSync(elsewhere);
      claudeMoved(world, elsewhere, record);
      world.claudeScenario({ messages: ["moved on"] });
      const result = await world.run(["resume", "1"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(world.launches()[0].cwd, elsewhere);
      assert.equal(world.sessions()[0].dir, elsewhere);
      assert.match(result.stdout, /Claude moved this session to/);
    });
  });
}
