/**
 * The list's edits as commands (issue 33.2): rename, delete, archive,
 * unarchive, fork and new --name, end to end with the fake claude, with
 * their refusals. Each goes through the path its menu key uses.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createLaunchWorld, openInAnotherWindow } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { openTmux, tmuxAvailable } from "./helpers/tmux.ts";
import { ON_WINDOWS } from "./helpers/portable.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { archivedSessions } from "../lib/core/registry.ts";
import { readRegistry } from "../lib/store/registry_store.ts";

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("rename N NAME and archive/unarchive N change the row as R#, A# and U# do, with --json", async () => {
  const world = createLaunchWorld();
  try {
    const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }], {
      archived: [{ desc: "Old" }],
    });
    const renamed = await world.run(["rename", "2", "Beta two"]);
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.match(renamed.stdout, /Renamed: Beta two/);
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Alpha", "Beta two"]);
    const json = await world.run(["rename", "Alpha", "A1", "--json"]);
    assert.deepEqual(JSON.parse(json.stdout), {
      sessionId: main[0].guid,
      name: "A1",
      number: 1,
      status: "renamed",
      previousName: "Alpha",
    });
    const bad = await world.run(["rename", "1", "a|b"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^claudecm: a session name cannot contain '\|'/);

    const archived = await world.run(["archive", "1", "--json"]);
    assert.equal(archived.code, 0, archived.stderr);
    assert.equal(JSON.parse(archived.stdout).status, "archived");
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Beta two"]);
    const again = await world.run(["archive", "A1"]);
    assert.equal(again.stderr, "claudecm: 'A1' is already archived\n");
    // unarchive N counts the archived list, as list mode's V shows it.
    assert.deepEqual(archivedSessions(readRegistry(world.paths)).map((s) => s.desc), ["Old", "A1"]);
    const back = await world.run(["unarchive", "2"]);
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /Unarchived: A1/);
    assert.deepEqual(world.sessions().map((s) => s.desc), ["A1", "Beta two"]);
    const notArchived = await world.run(["unarchive", "Beta two"]);
    assert.equal(notArchived.stderr, "claudecm: 'Beta two' is not archived (it is #2)\n");
    assert.deepEqual(world.launches(), [], "no verb starts claude");
  } finally {
    world.cleanup();
  }
});

Deno.test("delete N without a terminal refuses unless --yes; --yes deletes files and row; a live session is kept", async () => {
  const world = createLaunchWorld();
  try {
    const { main } = seedSessions(world, [{ desc: "Keep" }, { desc: "Drop" }]);
    const transcript = join(projectDirFor(world.paths, world.project), `${main[1].guid}.jsonl`);
    const refused = await world.run(["delete", "2"]);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /^claudecm: delete asks before it deletes, and there is no terminal/,
    );
    assert.match(refused.stderr, /claudecm delete 2 --yes\n$/);
    const noAsk = await world.run(["delete", "2", "--json"]);
    assert.equal(noAsk.code, 2);
    assert.ok(exists(transcript));
    assert.equal(world.sessions().length, 2);

    openInAnotherWindow(world, main[1].guid);
    const live = await world.run(["delete", "Drop", "--yes"]);
    assert.equal(live.code, 1);
    // A refusal is said on stderr, as every refusal is; the piped stdout carries no report.
    assert.match(live.stderr, /'Drop' is open in a claude window now; close it first/);
    assert.equal(live.stdout, "");
    assert.ok(exists(transcript));
    Deno.removeSync(world.paths.sessionsDir, { recursive: true });

    const deleted = await world.run(["delete", "2", "--yes", "--json"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const body = JSON.parse(deleted.stdout);
    assert.equal(body.status, "deleted");
    assert.equal(body.sessionId, main[1].guid);
    assert.match(deleted.stderr, /This permanently deletes 'Drop'/, "what goes is still listed");
    assert.ok(!exists(transcript));
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Keep"]);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "delete N in a terminal shows what it removes and asks for 'delete', as D# does",
  ignore: ON_WINDOWS || !tmuxAvailable(),
  fn: async () => {
    const world = createLaunchWorld();
    const { main } = seedSessions(world, [{ desc: "Keep" }, { desc: "Drop" }]);
    const transcript = join(projectDirFor(world.paths, world.project), `${main[1].guid}.jsonl`);
    for (const [typed, gone] of [["no", false], ["delete", true]] as const) {
      const terminal = await openTmux(["delete", "2"], { env: world.env, cwd: world.project });
      try {
        const screen = await terminal.waitFor(/Type 'delete' to confirm/);
        assert.match(screen, /This permanently deletes 'Drop'/);
        assert.ok(screen.includes(`${main[1].guid}.jsonl`), screen);
        await terminal.keys([typed], { literal: true });
        await terminal.keys(["Enter"]);
        await terminal.waitFor(gone ? /Deleted: Drop/ : /Cancelled\./);
      } finally {
        await terminal.close();
      }
      assert.equal(exists(transcript), !gone);
    }
    world.cleanup();
  },
});

Deno.test("fork N resumes with --fork-session; the branch gets its own row, 'NAME (fork)' or --name", async () => {
  const world = createLaunchWorld();
  try {
    const { main } = seedSessions(world, [{ desc: "Seeded" }]);
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const fork = "f0f0f0f0-0000-4000-8000-00000000f0f0";
    world.claudeScenario({ forkId: fork, messages: ["another way"] });
    const result = await world.run(["fork", "1"]);
    assert.equal(result.code, 0, result.stderr);
    const argv = world.launches().at(-1)!.argv;
    assert.ok(argv.includes("--fork-session"), argv.join(" "));
    assert.equal(argv[argv.indexOf("--resume") + 1], main[0].guid);
    assert.deepEqual(
      world.sessions().map((s) => [s.guid, s.desc]).sort(),
      [[fork, "Seeded (fork)"], [main[0].guid, "Seeded"]].sort(),
    );
    const second = "f0f0f0f0-0000-4000-8000-00000000f0f1";
    world.claudeScenario({ forkId: second, messages: ["a third way"] });
    const named = await world.run(["fork", "Seeded", "--name", "Try B"]);
    assert.equal(named.code, 0, named.stderr);
    assert.ok(world.sessions().some((s) => s.guid === second && s.desc === "Try B"));
    const none = await world.run(["fork", "9"]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no session #9: the list has 3/);
  } finally {
    world.cleanup();
  }
});

Deno.test("new --name NAME starts a new session of that name and asks nothing", async () => {
  const world = createLaunchWorld();
  try {
    seedSessions(world, [{ desc: "Already here" }]);
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    world.claudeScenario({ messages: ["hi"] });
    const result = await world.run(["new", "--name", "API tests"]);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout + result.stderr, /\?/, "no question");
    assert.equal(world.launches().length, 1);
    assert.ok(!world.launches()[0].argv.includes("--resume"));
    assert.deepEqual(world.sessions().map((s) => s.desc).sort(), ["API tests", "Already here"]);
  } finally {
    world.cleanup();
  }
});
