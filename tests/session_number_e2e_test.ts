import assert from "node:assert/strict";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { sessionId } from "./helpers/claude_home.ts";

const GUID = sessionId(0x51);

Deno.test("session numbers: leading zeros are accepted everywhere, #0 is refused clearly", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    save(folder, finishedSession({ sessionId: GUID, cwd: world.project }));
    Deno.writeTextFileSync(world.paths.registryFile, `${GUID}|${world.project}|Numbered|\n`);
    world.claudeScenario({ messages: ["again"] });
    world.cmvScenario({
      benchmark: { preTrimTokens: 1, reductionPercent: 0, breakEvenTurns: null },
    });
    for (const args of [["resume", "0001"], ["01"]]) {
      const result = await world.run(args);
      assert.equal(result.code, 0, `${args}: ${result.stderr}`);
      assert.deepEqual(world.launches().at(-1)!.argv.slice(1, 3), ["--resume", GUID]);
    }
    const launched = world.launches().length;
    for (const args of [["resume", "0"], ["resume", "00"], ["00"]]) {
      const result = await world.run(args);
      assert.equal(result.code, 2, `${args}`);
      assert.match(
        result.stderr,
        /there is no session #0: sessions are numbered from 1/,
        `${args}`,
      );
    }
    // Words are a saved name to the one resolver; none is that name.
    const words = await world.run(["resume", "first"]);
    assert.equal(words.code, 1);
    assert.match(words.stderr, /No such session: first \(see claudecm list\)/);
    assert.equal(world.launches().length, launched);
  } finally {
    world.cleanup();
  }
});
