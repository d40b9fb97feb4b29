import assert from "node:assert/strict";
import { join } from "node:path";
import { inWorldWithoutCmv, openInAnotherWindow } from "./helpers/launch_world.ts";
import { registryBytes, seedSessions } from "./helpers/seed.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { escapeRegExp, ON_WINDOWS } from "./helpers/portable.ts";
import { HAVE_PTY } from "./helpers/real_claude.ts";
import { typeInTerminal } from "./helpers/terminal_session.ts";

const FIVE = [
  { desc: "Context window work" },
  { desc: "Billing service" },
  { desc: "fix CONTEXT bug" },
  { desc: "Docs site" },
  { desc: "Release prep" },
];

Deno.test("list mode shows the list, the footer and the prompt; Enter, q, Q and end of input quit", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, FIVE);
    const before = registryBytes(world);
    for (const stdin of ["", "\n", "q\n", "Q\n", "  q  \n"]) {
      const result = await world.run([], { stdin });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /=== Saved Sessions ===/);
      assert.match(result.stdout, /\n {2}1\. Context window work /);
      assert.match(result.stdout, /\n {2}5\. Release prep /);
      assert.match(result.stdout, /\n {2}M\. Machine name \(desk\)\n/);
      assert.equal(result.stdout.match(/Pick a session \(Enter to quit\): /g)?.length, 1, stdin);
      assert.doesNotMatch(result.stdout, /Create a NEW project/);
    }
    assert.deepEqual(registryBytes(world), before);
    assert.equal(world.launches().length, 0);
  });
});

Deno.test("a number in list mode resumes that session in its folder and moves it to #1", async () => {
  await inWorldWithoutCmv(async (world) => {
    const other = join(world.dir, "other project");
    const { main } = seedSessions(world, [...FIVE.slice(0, 2), { desc: "Elsewhere", dir: other }]);
    world.claudeScenario({ messages: ["carry on"] });
    const result = await world.run(["l"], { stdin: "3\n" });
    assert.equal(result.code, 0, result.stderr);
    const [launch] = world.launches();
    assert.deepEqual(launch.argv.slice(1, 5), ["--resume", main[2].guid, "-n", "desk - Elsewhere"]);
    assert.equal(launch.cwd, other);
    assert.deepEqual(world.sessions().map((s) => s.desc), [
      "Elsewhere",
      "Context window work",
      "Billing service",
    ]);
    // After the pick it is a launch: claudecm's lines go to stderr (stdout is piped).
    assert.match(result.stderr, /Session ended\./);
  });
});

Deno.test("a number past the end says so and asks again; the end of input then quits", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, FIVE);
    const result = await world.run(["-L"], { stdin: "9\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /No session #9: the list has 5\./);
    assert.equal(result.stdout.match(/Pick a session/g)?.length, 2);
    assert.equal(world.launches().length, 0);
  });
});

Deno.test("other text asks to create a project, default No: nothing is created", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, FIVE);
    const before = registryBytes(world);
    const entries = () => [...Deno.readDirSync(world.project)].map((e) => e.name).sort();
    const folderBefore = entries();
    for (const answer of ["\n", "n\n", "nope\n", ""]) {
      const result = await world.run([], { stdin: `buffer such as this 2\n${answer}` });
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stdout,
        /'buffer such as this 2' is not a session number\. Create a NEW project named 'buffer such as this 2'\? \[y\/N\]: /,
      );
      assert.match(result.stdout, /Cancelled\. No project created\./);
    }
    assert.deepEqual(entries(), folderBefore);
    assert.deepEqual(registryBytes(world), before);
    assert.equal(world.launches().length, 0);
  });
});

Deno.test("yes creates the project folder under the cwd, launches and registers it at #1", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, FIVE.slice(0, 1));
    Deno.mkdirSync(join(world.project, "my-new-thing"));
    world.claudeScenario({ messages: ["hello"] });
    // A pasted title's escape sequences go: they would reach the registry and claude's -n.
    const result = await world.run([], { stdin: "My New\x1b]0;owned\x07 Thing!\x1b[2J\nyes\n" });
    assert.equal(result.code, 0, result.stderr);
    const dir = join(world.project, "my-new-thing(1)");
    assert.ok(pathExists(dir), "a free name next to the taken one");
    // After the yes it is a launch: claudecm's lines go to stderr (stdout is piped).
    assert.match(result.stderr, /Starting new session: My New Thing!/);
    assert.match(result.stderr, new RegExp(`Project dir: ${escapeRegExp(dir)}`));
    const [id] = world.sessionIdsPassed();
    const [launch] = world.launches();
    assert.equal(launch.cwd, dir);
    assert.deepEqual(launch.argv.slice(3, 5), ["-n", "desk - My New Thing!"]);
    assert.deepEqual(
      world.sessions().map((s) => [s.guid, s.dir, s.desc]),
      [[id, dir, "My New Thing!"], [
        world.sessions()[1].guid,
        world.project,
        "Context window work",
      ]],
    );
  });
});

Deno.test("M changes the machine name, used at once by the next launch", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, FIVE.slice(0, 1));
    world.claudeScenario({ messages: ["x"] });
    const result = await world.run([], { stdin: "m\nlaptop\n1\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /New name \(Enter to keep\): /);
    assert.match(result.stdout, /M\. Machine name \(laptop\)/);
    assert.equal(Deno.readTextFileSync(world.paths.machineNameFile), "laptop\n");
    assert.equal(world.launches()[0].argv[4], "laptop - Context window work");
  });
});

Deno.test("canonical list with stdin not a terminal prints the table and never prompts", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, FIVE);
    const result = await world.run(["list"], { stdin: "1\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /5 session\(s\)/);
    assert.doesNotMatch(result.stdout, /Pick a session/);
    assert.equal(world.launches().length, 0);
  });
});

Deno.test("a session open in a claude window is marked in the list and in list --json", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, FIVE.slice(0, 2));
    // This test process stands in for a running claude on the second session.
    openInAnotherWindow(world, main[1].guid);
    // And a manifest whose process is gone marks nothing.
    Deno.writeTextFileSync(
      join(world.paths.sessionsDir, "999999999.json"),
      JSON.stringify({ pid: 999999999, sessionId: main[0].guid, cwd: world.project }),
    );
    const shown = await world.run(["l"]);
    assert.match(shown.stdout, /\n {2}2\. Billing service \[live\] /);
    assert.doesNotMatch(shown.stdout, /Context window work +\[live\]/);
    assert.match(shown.stdout, /\[live\] = open in a claude window now/);
    const json = JSON.parse((await world.run(["list", "--json"])).stdout);
    assert.deepEqual(json.sessions.map((s: { live: boolean }) => s.live), [false, true]);
  });
});

Deno.test("picking a session open in a claude window asks first, default No, as resume N does", async () => {
  await inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, FIVE.slice(0, 2));
    openInAnotherWindow(world, main[1].guid);
    for (const args of [["l"], ["-s", "billing"]]) {
      // Search shows Billing by its list number, 2, as the list does.
      const result = await world.run(args, { stdin: "2\n\n" });
      // A pick is a launch from there on: with stdout piped, claudecm speaks on stderr.
      assert.match(result.stderr, /'Billing service' is open in another claude window\./);
      assert.match(result.stderr, /Resume it here anyway\? \[y\/N\]: /);
    }
    assert.equal(world.launches().length, 0);
  });
});

Deno.test("list mode works without claude; a pick then says claude is missing", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, FIVE.slice(0, 2));
    world.env.CLAUDECM_CLAUDE = `${world.dir}/no-claude-here`;
    const browse = await world.run([], { stdin: "e\nr1\nRenamed\n\n\n" });
    assert.equal(browse.code, 0, browse.stderr);
    assert.equal(world.sessions()[0].desc, "Renamed");
    const pick = await world.run([], { stdin: "1\n" });
    assert.equal(pick.code, 1);
    assert.match(pick.stderr, /claudecm: .*no-claude-here/);
  });
});

Deno.test("the table on a pipe asks nothing, not even the machine name", async () => {
  await inWorldWithoutCmv(async (world) => {
    seedSessions(world, FIVE.slice(0, 1));
    Deno.removeSync(world.paths.machineNameFile);
    const result = await world.run(["list"], { stdin: "laptop\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Machine name for remote display/);
    assert.ok(!pathExists(world.paths.machineNameFile));
  });
});

Deno.test({
  name: "a new project under a folder sessions.txt cannot store is refused before anything is made",
  ignore: ON_WINDOWS, // Windows forbids '|' in a folder name: there is no such folder there
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      seedSessions(world, FIVE.slice(0, 1));
      const piped = join(world.dir, "a|b");
      Deno.mkdirSync(piped);
      const result = await world.run([], { stdin: "Side thing\ny\n", cwd: piped });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /cannot use the folder .*a\|b.*sessions\.txt cannot store/);
      assert.deepEqual([...Deno.readDirSync(piped)], []);
      assert.equal(world.launches().length, 0);
      assert.equal(world.sessions().length, 1);
    }),
});

Deno.test({
  name: "list and search in a terminal whose output is piped print the table and ask nothing",
  // util-linux `script` gives claudecm a terminal for stdin while its stdout goes to `cat`.
  ignore: !HAVE_PTY,
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      seedSessions(world, FIVE);
      for (const args of [["list"], ["search", "context"]]) {
        // Nothing is typed: a run that asks waits until the helper kills it.
        const run = await typeInTerminal(world, args, { steps: [], shellAfter: "| cat" });
        assert.equal(run.code, 0, `${args.join(" ")} waited for an answer: ${run.screen}`);
        assert.match(run.screen, /Context window work/);
        assert.doesNotMatch(run.screen, /Pick a session|Pick a number/);
      }
    });
  },
});

Deno.test({
  name: "with output to a file, a launch's questions are asked on the terminal, not into the file",
  ignore: !HAVE_PTY,
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      Deno.removeSync(world.paths.machineNameFile);
      world.claudeScenario({ messages: [] });
      const out = `${world.dir}/out.txt`;
      const run = await typeInTerminal(world, ["new"], {
        shellAfter: `> '${out}'`,
        steps: [
          { waitFor: /Machine name for remote display/, keys: "laptop\r" },
          { waitFor: /Create a name for this session/, keys: "Filed\r" },
        ],
      });
      assert.match(run.screen, /Create a name for this session/, run.screen);
      const file = Deno.readTextFileSync(out);
      assert.doesNotMatch(file, /Machine name for remote display|Create a name for this session/);
    });
  },
});

Deno.test({
  name: "with output to a file, a launch says everything on the terminal: the file holds claude's",
  ignore: !HAVE_PTY,
  fn: async () => {
    await inWorldWithoutCmv(async (world) => {
      world.claudeScenario({ printResult: "THE ANSWER" });
      const out = `${world.dir}/answer.txt`;
      world.claudeScenario({ printResult: "THE ANSWER", printExitCode: 3 });
      const run = await typeInTerminal(world, ["new", "--", "-p", "hello"], {
        shellAfter: `> '${out}'`,
        steps: [],
      });
      assert.equal(run.code, 3, run.screen);
      assert.equal(Deno.readTextFileSync(out), "THE ANSWER\n");
      // A print call is no session (issue 31 defect 14): nothing to name, nothing saved.
      assert.match(run.screen, /claude exited with code 3\./);
      assert.doesNotMatch(run.screen, /Describe this session|Session ended/);
      assert.deepEqual(world.sessions(), []);
    });
  },
});

for (const args of [["resume", "1"], [], ["-s", "Lost"]]) {
  Deno.test({
    name: `claudecm ${
      args.join(" ")
    } with output to a file: a lost transcript's choices show on the terminal`,
    ignore: !HAVE_PTY,
    fn: async () => {
      await inWorldWithoutCmv(async (world) => {
        seedSessions(world, [{ desc: "Lost work", missing: true }]);
        const out = `${world.dir}/out.txt`;
        // The old forms pick from the list first (list mode, search mode).
        const pick = args[0] === "resume" ? [] : [{ waitFor: /Pick a session/, keys: "1\r" }];
        const run = await typeInTerminal(world, args, {
          shellAfter: `> '${out}'`,
          steps: [...pick, { waitFor: /Choice \[1-3\]/, keys: "3\r" }],
        });
        assert.match(run.screen, /1\. Start a fresh Claude session in that directory/, run.screen);
        assert.doesNotMatch(Deno.readTextFileSync(out), /Start a fresh Claude session|Lost work/);
      });
    },
  });
}
