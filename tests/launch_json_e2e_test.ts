/**
 * `fork N --json` and `new --name NAME --json` (issue 33.2): once claude
 * exits, stdout's last line is one JSON object in the shape of the list's
 * edits (rename, archive, delete): the session's id, name and list number,
 * and a status. claudecm's own lines go to stderr and nothing is asked; a
 * failure before the launch is run.ts's JSON failure object.
 */

import assert from "node:assert/strict";
import { inWorldWithoutCmv, openInAnotherWindow } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";

const FORK = "f0f0f0f0-0000-4000-8000-00000000f0f0";

/** stdout's last line as JSON, and what came before it (claude's own output). */
function lastJson(stdout: string): { json: Record<string, unknown>; before: string } {
  const lines = stdout.trimEnd().split("\n");
  return { json: JSON.parse(lines.at(-1)!), before: lines.slice(0, -1).join("\n") };
}

Deno.test("fork N --json: the branch's id, name and number on stdout's last line; the rest on stderr", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Seeded" }]);
    world.claudeScenario({ forkId: FORK, messages: ["another way"] });
    const result = await world.run(["fork", "1", "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const { json, before } = lastJson(result.stdout);
    assert.deepEqual(json, {
      sessionId: FORK,
      name: "Seeded (fork)",
      number: 1,
      status: "forked",
      exitCode: 0,
      forkOf: main[0].guid,
    });
    assert.equal(before, `\nResume this session with:\nclaude --resume ${FORK}`, "claude's own");
    assert.match(result.stderr, /Session ended\./);
    const second = "f0f0f0f0-0000-4000-8000-00000000f0f1";
    world.claudeScenario({ forkId: second, messages: ["a third way"] });
    const named = await world.run(["fork", "Seeded", "--name", "Try B", "--json"]);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(lastJson(named.stdout).json.name, "Try B");
    assert.equal(lastJson(named.stdout).json.sessionId, second);
  });
});

Deno.test("fork N --json when claude makes no branch: status no-session", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Seeded" }]);
    world.claudeScenario({ forkId: FORK });
    const result = await world.run(["fork", "1", "--json"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), {
      sessionId: null,
      name: null,
      number: null,
      status: "no-session",
      exitCode: 0,
      forkOf: main[0].guid,
    });
  });
});

Deno.test("fork --json that fails before a launch: the JSON failure object, and nothing asked", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Seeded" }]);
    const none = await world.run(["fork", "9", "--json"]);
    assert.equal(none.code, 1);
    assert.deepEqual(JSON.parse(none.stdout), {
      status: "error",
      exitCode: 1,
      message: "no session #9: the list has 1",
    });
    // A live session would need a yes: --json never asks, so it is not resumed.
    openInAnotherWindow(world, main[0].guid);
    const live = await world.run(["fork", "1", "--json"], { stdin: "y\n" });
    assert.equal(live.code, 1);
    assert.equal(JSON.parse(live.stdout).status, "error");
    assert.match(live.stderr, /'Seeded' is open in another claude window/);
    assert.doesNotMatch(live.stderr, /\[y\/N\]/, "no question");
    assert.equal(world.launches().length, 0);
  });
});

Deno.test("new --name NAME --json: the new session's id, name and number; nothing asked", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, [{ desc: "Already here" }]);
    world.claudeScenario({ messages: ["hi"] });
    const result = await world.run(["new", "--name", "API tests", "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const [id] = world.sessionIdsPassed();
    assert.deepEqual(lastJson(result.stdout).json, {
      sessionId: id,
      name: "API tests",
      number: 1,
      status: "started",
      exitCode: 0,
    });
    assert.match(result.stderr, /Session ended\./);
    assert.doesNotMatch(result.stdout + result.stderr, /\?/, "no question");
    // Claude left before a first message: no session was saved.
    world.claudeScenario({});
    const empty = await world.run(["new", "--name", "Nothing", "--json"]);
    assert.equal(empty.code, 0, empty.stderr);
    assert.deepEqual(JSON.parse(empty.stdout), {
      sessionId: null,
      name: null,
      number: null,
      status: "no-session",
      exitCode: 0,
    });
  });
});

Deno.test("new --json without --name, or with claude arguments that start no session here, is a usage error", async () => {
  await inWorldWithoutCmv(async (world) => {
    for (
      const [args, message] of [
        [["new", "--json"], /needs the name: claudecm new --name NAME --json/],
        [["new", "--name", "X", "--json", "--", "-p", "q"], /starts none here/],
        [["n", "--name", "X", "--json"], /--json goes after a command/],
      ] as const
    ) {
      const result = await world.run([...args]);
      assert.equal(result.code, 2, args.join(" "));
      const json = JSON.parse(result.stdout);
      assert.equal(json.status, "usage-error");
      assert.match(json.message, message);
    }
    assert.equal(world.launches().length, 0);
    assert.deepEqual(world.sessions(), []);
  });
});
