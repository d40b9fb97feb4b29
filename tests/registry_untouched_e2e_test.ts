import assert from "node:assert/strict";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { sessionId } from "./helpers/claude_home.ts";

Deno.test({
  name: "resuming #1 while it is already on top leaves sessions.txt as it was",
  ignore: Deno.build.os === "windows", // inode numbers
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const guid = sessionId(0xb1);
      const folder = projectDirFor(world.paths, world.project);
      Deno.mkdirSync(folder, { recursive: true });
      save(folder, finishedSession({ sessionId: guid, cwd: world.project }));
      // A CRLF line, a blank line and a decorated marker: all must stay as they are.
      const text = `${guid}|${world.project}|On top|98765\r\n\n  [archived] \n${
        sessionId(2)
      }|/old|Old|\n`;
      Deno.writeTextFileSync(world.paths.registryFile, text);
      const before = Deno.statSync(world.paths.registryFile);
      world.claudeScenario({ messages: ["carry on"] });
      world.cmvScenario({
        benchmark: { preTrimTokens: 98765, reductionPercent: 2, breakEvenTurns: null },
      });
      const result = await world.run(["resume", "1"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(world.launches().length, 1);
      const after = Deno.statSync(world.paths.registryFile);
      assert.equal(Deno.readTextFileSync(world.paths.registryFile), text);
      assert.equal(after.ino, before.ino, "sessions.txt was not rewritten");
    } finally {
      world.cleanup();
    }
  },
});
