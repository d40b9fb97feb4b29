/**
 * With stdout not a terminal, a launch's stdout holds only what claude
 * wrote, however the launch was reached: a command that launches, or a pick
 * in a menu or a search, after which everything claudecm says (its questions
 * too) goes to stderr (issue 31 defect 13's class; lib/app/context.ts
 * `launchContext`). A menu's own table and dialogue are what its stdout was
 * asked for, so they stay there, up to the pick. `find` picks only in a
 * terminal (stdin and stdout), so its stdout is never piped at a pick.
 */

import assert from "node:assert/strict";
import { inWorldWithoutCmv, openInAnotherWindow } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";

/** What the fake claude prints when an interactive session with a transcript ends. */
function claudeOutput(guid: string): string {
  return `\nResume this session with:\nclaude --resume ${guid}\n`;
}

const PICK = "Pick a session (Enter to quit): ";

for (
  const { args, stdin } of [
    { args: [], stdin: "1\n" }, // the old form: list mode on piped input
    { args: ["l"], stdin: "1\n" },
    { args: ["list", "-i"], stdin: "1\n" },
    { args: ["search", "-i", "Bill"], stdin: "1\n" },
    { args: ["-s", "Bill"], stdin: "1\n" },
  ]
) {
  Deno.test(`claudecm ${args.join(" ")}, stdout piped: after the pick, stdout is claude's alone`, async () => {
    await inWorldWithoutCmv(async (world) => {
      const { main } = seedSessions(world, [{ desc: "Billing" }]);
      world.claudeScenario({ messages: ["carry on"] });
      const result = await world.run(args, { stdin });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(world.launches().length, 1);
      const at = result.stdout.indexOf(PICK);
      assert.ok(at >= 0, `the menu's dialogue is on stdout: ${result.stdout}`);
      assert.equal(result.stdout.slice(at + PICK.length), claudeOutput(main[0].guid));
      assert.match(result.stderr, /Session ended\./);
      assert.match(result.stderr, /To resume it later: claudecm resume 1/);
    });
  });
}

Deno.test("a pick of a live session, stdout piped: its warning and question are on stderr", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Billing" }]);
    world.claudeScenario({ messages: ["carry on"] });
    openInAnotherWindow(world, main[0].guid);
    const result = await world.run([], { stdin: "1\ny\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(world.launches().length, 1);
    const at = result.stdout.indexOf(PICK);
    assert.equal(result.stdout.slice(at + PICK.length), claudeOutput(main[0].guid));
    assert.match(result.stderr, /'Billing' is open in another claude window\./);
    assert.match(result.stderr, /Resume it here anyway\? \[y\/N\]: /);
  });
});

Deno.test("a new project from list mode, stdout piped: after its question, stdout is claude's alone", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, [{ desc: "Billing" }]);
    world.claudeScenario({ messages: ["start"] });
    const result = await world.run([], { stdin: "Fresh Idea\ny\n" });
    assert.equal(result.code, 0, result.stderr);
    const [id] = world.sessionIdsPassed();
    const question = /Create a NEW project named 'Fresh Idea'\? \[y\/N\]: /.exec(result.stdout);
    assert.ok(question !== null, result.stdout);
    assert.equal(
      result.stdout.slice(question.index + question[0].length),
      claudeOutput(id),
    );
    assert.match(result.stderr, /Starting new session: Fresh Idea/);
    assert.match(result.stderr, /Session ended\./);
  });
});

for (
  const { args, seeded } of [
    { args: ["resume", "1"], seeded: true },
    { args: ["1"], seeded: true },
    { args: ["fork", "1"], seeded: true },
    { args: ["new", "--name", "Other"], seeded: true },
    { args: ["new", "--name", "First"], seeded: false },
  ]
) {
  Deno.test(`claudecm ${args.join(" ")}, stdout piped: stdout is claude's alone`, async () => {
    await inWorldWithoutCmv(async (world) => {
      if (seeded) seedSessions(world, [{ desc: "Billing" }]);
      world.claudeScenario({ messages: ["carry on"] });
      const result = await world.run(args);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(world.launches().length, 1);
      assert.match(result.stdout, /^\nResume this session with:\nclaude --resume [0-9a-f-]{36}\n$/);
      assert.match(result.stderr, /Session ended\./);
    });
  });
}
