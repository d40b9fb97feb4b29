import assert from "node:assert/strict";
import { join } from "node:path";
import { claudeMoved, inMoveWorld } from "./helpers/move_world.ts";

Deno.test("resume N on a gone folder: Enter cancels, nothing launches, nothing changes", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    const result = await world.run(["resume", "1"], { stdin: "\n" });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Where is it now\? New path \(Enter cancels\)/);
    assert.match(result.stderr, /Not resumed/);
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
      assert.match(result.stderr, /Claude moved 'Main work' to /);
    });
  });
}

for (const record of [true, false]) {
  Deno.test(`a session claude moved with /cd (${record ? "relocated record" : "newer cwd only"}): plain list alone moves the row, list --json only shows`, async () => {
    await inMoveWorld(async (world) => {
      const elsewhere = join(world.dir, "elsewhere");
      Deno.mkdirSync(elsewhere);
      claudeMoved(world, elsewhere, record);
      for (const readOnly of [["list", "--json"], ["search", "--json", "Main"], ["doctor"]]) {
        await world.run(readOnly);
        const registry = Deno.readTextFileSync(world.paths.registryFile);
        assert.equal(registry, world.registryText, `${readOnly.join(" ")} wrote`);
      }
      const result = await world.run(["list"]);
      assert.equal(result.code, 0, result.stderr);
      // A note of what claudecm did, off the piped table (issue 31 defect 13).
      assert.match(result.stderr, /Claude moved 'Main work' to .*elsewhere/);
      assert.doesNotMatch(result.stdout, /Claude moved/);
      assert.equal(world.sessions()[0].dir, elsewhere);
      const others = world.registryText.replace(
        `|${world.old}|Main work|`,
        `|${elsewhere}|Main work|`,
      );
      assert.equal(
        Deno.readTextFileSync(world.paths.registryFile),
        others,
        "other lines untouched",
      );
      const again = await world.run(["list"]);
      assert.doesNotMatch(again.stdout, /Claude moved/);
      assert.deepEqual(world.launches(), []);
    });
  });
}

Deno.test("after claude moved a session with /cd, claudecm new in its new folder offers that session", async () => {
  await inMoveWorld(async (world) => {
    const elsewhere = join(world.dir, "elsewhere");
    Deno.mkdirSync(elsewhere);
    claudeMoved(world, elsewhere, true);
    world.claudeScenario({ messages: ["moved on"] });
    const result = await world.run(["new"], { cwd: elsewhere, stdin: "\n\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Session found: Main work/);
    const [launch] = world.launches();
    assert.equal(launch.cwd, elsewhere);
    assert.deepEqual(launch.argv.slice(1, 3), ["--resume", world.ids.main]);
  });
});
