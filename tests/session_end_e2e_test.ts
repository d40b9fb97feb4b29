/**
 * The end of a session: how to get back to it (`claudecm resume N`, N as the
 * list now stands), and a missing cmv said once, in one line, then only by
 * doctor (issue 31 defects 4 and 5).
 */

import assert from "node:assert/strict";
import { join } from "../lib/core/path.ts";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";

/** What a person reads of a run: claudecm's lines are on stderr when stdout is a pipe. */
function shown(result: { stdout: string; stderr: string }): string {
  return result.stdout + result.stderr;
}

Deno.test("after a resume, claudecm says how to get back: claudecm resume 1", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, [{ desc: "Billing" }, { desc: "Webapp" }, { desc: "Docs" }]);
    world.claudeScenario({ messages: ["carry on"] });
    const result = await world.run(["resume", "3"], { stdin: "" });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(world.sessions()[0].desc, "Docs");
    assert.match(shown(result), /Session ended\.\n\n {2}To resume it later: claudecm resume 1\n/);
  });
});

Deno.test("after a new session, and after one claude ended with an error, the way back is said", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, [{ desc: "Elsewhere", dir: join(world.dir, "elsewhere") }]);
    world.claudeScenario({ messages: ["hello"] });
    const clean = await world.run(["new"], { stdin: "Backend\n" });
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(shown(clean), /To resume it later: claudecm resume 1\n/);
    world.claudeScenario({ messages: ["hello"], exitCode: 1 });
    Deno.mkdirSync(join(world.dir, "other"));
    const failed = await world.run(["new", "--proj", join(world.dir, "other")], {
      stdin: "Other\n",
    });
    assert.match(
      shown(failed),
      /claude exited with code 1; saved as 'Other'; to resume it later: claudecm resume 1\n/,
    );
  });
});

Deno.test("cmv missing is said once, in one line; doctor still says it", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["hello"] });
    const first = await world.run(["new"], { stdin: "One\n" });
    assert.equal(first.code, 0, first.stderr);
    const said = shown(first).split("\n").filter((line) => /cmv/.test(line));
    assert.deepEqual(said, [
      "  cmv not found, so snapshots, trim, refresh and token counts are skipped " +
      "(said once; claudecm doctor says more)",
    ]);
    const second = await world.run(["resume", "1"], { stdin: "" });
    assert.equal(second.code, 0, second.stderr);
    assert.match(shown(second), /Session ended/);
    assert.doesNotMatch(shown(second), /cmv/);
    const doctor = await world.run(["doctor"], { stdin: "" });
    assert.match(shown(doctor), /cmv/);
  });
});
