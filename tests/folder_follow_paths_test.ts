import assert from "node:assert/strict";
import { join } from "node:path";
import { runFind } from "../lib/app/find/find.ts";
import { followRelocations } from "../lib/app/move/relocation.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { claudeMoved, inMoveWorld, type MoveWorld } from "./helpers/move_world.ts";
import { createTestContext } from "./helpers/test_context.ts";

// Issue 21 on the resume paths other than `resume N`: a pass-through `-r`
// and a `find` pick go through the one resume entry, so a registered folder
// that is gone asks where it went, and a row claude moved follows it.

Deno.test("-r on a session whose registered folder is gone: Enter cancels, nothing launches", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    const result = await world.run(["-r", world.ids.main], { stdin: "\n" });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Where is it now\? New path \(Enter cancels\)/);
    assert.deepEqual(world.launches(), []);
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), world.registryText);
  });
});

Deno.test("-r on a session whose registered folder is gone: a path given moves it, claude runs here", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    world.claudeScenario({ messages: ["here again"] });
    const result = await world.run(["-r", world.ids.main], { stdin: `${world.renamed}\n` });
    assert.equal(result.code, 0, result.stderr);
    const [launch] = world.launches();
    assert.equal(launch.cwd, world.project);
    assert.deepEqual(launch.argv.slice(1, 3), ["--resume", world.ids.main]);
    assert.equal(world.sessions()[0].dir, world.renamed);
  });
});

/** Run `find kookaburra` (a word only the main session has) in `world`, picking hit 1. */
async function findAndPick(world: MoveWorld, answers: string[]) {
  const transcript = [world.old, world.renamed, join(world.dir, "elsewhere")]
    .map((dir) => join(projectDirFor(world.paths, dir), `${world.ids.main}.jsonl`))
    .find((path) => {
      try {
        return Deno.statSync(path).isFile;
      } catch {
        return false;
      }
    })!;
  const line = {
    type: "user",
    sessionId: world.ids.main,
    uuid: "u-kookaburra",
    timestamp: "2026-11-29T10:00:00.000Z",
    message: { role: "user", content: "the kookaburra release" },
  };
  Deno.writeTextFileSync(transcript, JSON.stringify(line) + "\n", { append: true });
  const t = createTestContext({ env: world.env, cwd: world.project, answers, interactive: true });
  try {
    const code = await runFind(t.ctx, { terms: ["kookaburra"] });
    return { code, stdout: t.stdout(), stderr: t.stderr(), questions: t.questions };
  } finally {
    t.cleanup();
  }
}

Deno.test("a find pick whose registered folder is gone asks where it went; Enter cancels", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    const registry = Deno.readTextFileSync(world.paths.registryFile);
    const result = await findAndPick(world, ["1", ""]);
    assert.equal(result.code, 1);
    assert.ok(result.questions.some((q) => /Where is it now\?/.test(q)), result.stderr);
    assert.deepEqual(world.launches(), []);
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), registry);
  });
});

Deno.test("a find pick whose registered folder is gone: a path given moves it, then resumes there", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    world.claudeScenario({ messages: ["found again"] });
    const result = await findAndPick(world, ["1", world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    const [launch] = world.launches();
    assert.equal(launch.cwd, world.renamed);
    assert.deepEqual(launch.argv.slice(1, 3), ["--resume", world.ids.main]);
    assert.equal(world.sessions()[0].dir, world.renamed);
  });
});

Deno.test("a find pick of a session claude moved with /cd resumes it where it is now", async () => {
  await inMoveWorld(async (world) => {
    const elsewhere = join(world.dir, "elsewhere");
    Deno.mkdirSync(elsewhere);
    claudeMoved(world, elsewhere, true);
    world.claudeScenario({ messages: ["moved on"] });
    const result = await findAndPick(world, ["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(world.launches()[0].cwd, elsewhere);
    assert.equal(world.sessions()[0].dir, elsewhere);
  });
});

Deno.test("following a /cd is a compare and swap: a row another run moved meanwhile stays put", async () => {
  await inMoveWorld(async (world) => {
    const elsewhere = join(world.dir, "elsewhere");
    const chosen = join(world.dir, "chosen");
    for (const dir of [elsewhere, chosen]) Deno.mkdirSync(dir);
    claudeMoved(world, elsewhere, true);
    const seen = world.sessions()[0];
    const meanwhile = world.registryText.replace(`|${world.old}|Main`, `|${chosen}|Main`);
    Deno.writeTextFileSync(world.paths.registryFile, meanwhile);
    const t = createTestContext({ env: world.env, cwd: world.project });
    try {
      assert.deepEqual(await followRelocations(t.ctx, [seen]), []);
      assert.equal(Deno.readTextFileSync(world.paths.registryFile), meanwhile);
      const [moved] = await followRelocations(t.ctx, [world.sessions()[0]]);
      assert.equal(moved.dir, elsewhere);
      assert.equal(world.sessions()[0].dir, elsewhere);
    } finally {
      t.cleanup();
    }
  });
});
