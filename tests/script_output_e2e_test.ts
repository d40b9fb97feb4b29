/**
 * A launch's stdout, redirected by a script, holds only what claude wrote:
 * claudecm's own lines go to stderr (issue 31 defect 13).
 */

import assert from "node:assert/strict";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";

Deno.test("new -- -p with stdin and stdout not terminals: stdout is claude's answer alone", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ printResult: "forty-two" });
    const result = await world.run(["new", "--", "-p", "what is the answer"], { stdin: "" });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "forty-two\n");
  });
});

Deno.test("a failed new -- -p: the exit line is on stderr, stdout holds claude's output only", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ printResult: "partial", printIsError: true, printExitCode: 1 });
    const result = await world.run(["new", "--", "-p", "q"], { stdin: "" });
    assert.equal(result.stdout, "partial\n");
    assert.match(result.stderr, /claude exited with code 1/);
  });
});

Deno.test("resume N with stdout not a terminal: the list and status lines go to stderr", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, [{ desc: "Billing" }]);
    world.claudeScenario({ messages: ["carry on"] });
    const result = await world.run(["resume", "1"], { stdin: "" });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Billing|Session|claudecm/);
    assert.match(result.stderr, /Billing/);
  });
});
