import assert from "node:assert/strict";
import { join } from "node:path";
import { inWorldWithoutCmv, type LaunchWorld } from "./helpers/launch_world.ts";
import { registryBytes, seedSessions } from "./helpers/seed.ts";
import { runClaudecm } from "./helpers/run_cli.ts";

const FIVE = [
  { desc: "Context window work" },
  { desc: "Billing service" },
  { desc: "fix CONTEXT bug" },
  { desc: "Docs site", dir: "context-in-the-folder-name" },
  { desc: "Release prep" },
];

function five(world: LaunchWorld) {
  return seedSessions(
    world,
    FIVE.map((spec) => spec.dir ? { ...spec, dir: join(world.dir, spec.dir) } : spec),
  );
}

Deno.test("-s context over 5 sessions: the 2 name matches by their list numbers, '2 of 5', no footer, no project offer, registry untouched", async () => {
  await inWorldWithoutCmv(async (world) => {
    five(world);
    const before = registryBytes(world);
    for (const stdin of ["", "\n", "q\n", "not a number\n\n", "9\n", "2\n"]) {
      const result = await world.run(["-s", "context"], { stdin });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /=== Sessions matching 'context' ===/);
      assert.match(result.stdout, /\n {2}1\. Context window work /);
      assert.match(result.stdout, /\n {2}3\. fix CONTEXT bug /, "its number in the list");
      assert.doesNotMatch(result.stdout, /Docs site|Billing|Release/, "DESC only, never DIR");
      assert.match(result.stdout, /\n {2}2 of 5 sessions matching 'context'\n/);
      assert.doesNotMatch(result.stdout, /Machine name|Edit this list|View archived/);
      assert.doesNotMatch(result.stdout, /Create a NEW project|No project created/);
      assert.match(result.stdout, /Pick a session \(Enter to quit\): /);
      if (stdin.startsWith("not")) {
        assert.match(result.stdout, /Type one of the numbers shown \(1, 3\), or Enter to quit\./);
      }
      if (/^[29]/.test(stdin)) {
        // #2 is in the list, but not a match: search picks only what it shows.
        assert.match(result.stdout, /#\d is not among the matches: type one of the numbers shown/);
      }
    }
    assert.deepEqual(registryBytes(world), before);
    assert.equal(world.launches().length, 0);
    assert.deepEqual([...Deno.readDirSync(world.project)], [], "no folder was created");
  });
});

Deno.test("a number in search is the session's list number: the one `resume N` takes too", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = five(world);
    world.claudeScenario({ messages: ["more"] });
    const result = await world.run(["-S", "CONTEXT"], { stdin: "3\n" });
    assert.equal(result.code, 0, result.stderr);
    const [launch] = world.launches();
    assert.deepEqual(launch.argv.slice(1, 5), [
      "--resume",
      main[2].guid,
      "-n",
      "desk - fix CONTEXT bug",
    ]);
    assert.equal(world.sessions()[0].guid, main[2].guid, "moved to #1");
  });
});

Deno.test("search with no match, with no term, and canonical search on a pipe", async () => {
  await inWorldWithoutCmv(async (world) => {
    five(world);
    const none = await world.run(["-s", "zebra"]);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /No sessions matching 'zebra'\./);
    for (const args of [["-s"], ["-s", "   "], ["search"]]) {
      const usage = await world.run(args);
      assert.equal(usage.code, 2, args.join(" "));
      assert.match(usage.stderr, /Usage: claudecm search TERM/);
    }
    const json = await world.run(["search", "--json"]);
    assert.equal(json.code, 2);
    assert.deepEqual(JSON.parse(json.stdout), {
      status: "usage-error",
      exitCode: 2,
      message: "search needs a TERM: claudecm search --json TERM",
    });
    const piped = await world.run(["search", "context"], { stdin: "1\n" });
    assert.equal(piped.code, 0, piped.stderr);
    assert.match(piped.stdout, /2 of 5 sessions matching 'context'/);
    assert.doesNotMatch(piped.stdout, /Pick a session/);
    assert.equal(world.launches().length, 0);
  });
});

Deno.test("search --json: the matches with their list numbers, read-only", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = five(world);
    const before = registryBytes(world);
    const result = await world.run(["search", "--json", "context"]);
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.total, 5);
    assert.deepEqual(
      json.sessions.map((
        s: { number: number; listNumber: number; guid: string; live: boolean },
      ) => [s.number, s.listNumber, s.guid, s.live]),
      [[1, 1, main[0].guid, false], [3, 3, main[2].guid, false]],
    );
    assert.deepEqual(registryBytes(world), before);
    assert.ok(!Deno.readDirSync(world.paths.cmHome).some((e) => e.name === "backup"));
  });
});

Deno.test("search ignores case as a reader does, Greek final sigma included", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "ΚΑΣΣΑ ταμείο" }, { desc: "Other" }]);
    for (const term of ["ΚΑΣ", "κασσα", "ΤΑΜΕΊΟ"]) {
      const result = await world.run(["search", "--json", term]);
      assert.deepEqual(
        JSON.parse(result.stdout).sessions.map((s: { guid: string }) => s.guid),
        [main[0].guid],
        term,
      );
    }
  });
});

Deno.test("list, search, resume and new each answer --help without a HOME", async () => {
  for (const command of ["list", "search", "resume", "new"]) {
    const result = await runClaudecm([command, "--help"], { env: {} });
    assert.equal(result.code, 0, command);
    assert.match(result.stdout, new RegExp(`Usage: claudecm ${command}`));
  }
  const search = await runClaudecm(["search", "--help"], { env: {} });
  assert.match(search.stdout, /Old forms: claudecm -s TERM/);
  const list = await runClaudecm(["list", "--help"], { env: {} });
  assert.match(list.stdout, /--interactive/);
});

Deno.test("search takes several words as one name, as -s does", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Schema migrate" }, { desc: "Schema" }]);
    const result = await world.run(["search", "--json", "schema", "migrate"]);
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.term, "schema migrate");
    assert.deepEqual(json.sessions.map((s: { guid: string }) => s.guid), [main[0].guid]);
  });
});
