import assert from "node:assert/strict";
import { runFind } from "../lib/app/find/find.ts";
import { resumeFound } from "../lib/app/find/pick.ts";
import { mainSessions } from "../lib/core/registry.ts";
import { readRegistry } from "../lib/store/registry_store.ts";
import { createFakeWorld, type FakeWorld } from "./helpers/fakes.ts";
import { writeFindHistory } from "./helpers/find_fixtures.ts";
import { createTestContext } from "./helpers/test_context.ts";

function setup(world: FakeWorld, answers: string[]) {
  world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
  const t = createTestContext({
    env: world.env,
    cwd: world.project,
    answers,
    interactive: true,
    now: new Date("2026-11-30T12:00:00Z"),
  });
  Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
  Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "desk\n");
  return { t, history: writeFindHistory(t.ctx, t.home) };
}

const launches = (world: FakeWorld) =>
  world.argv("claude").filter(({ argv }) => !["--version", "--help"].includes(argv[0]));

Deno.test("picking an unregistered hit registers it with its title, then resumes it", async () => {
  const world = createFakeWorld();
  const { t, history } = setup(world, ["1"]);
  try {
    world.claudeScenario({ messages: ["carry on"] });
    assert.equal(await runFind(t.ctx, { terms: ["platypus"] }), 0);
    assert.match(t.stdout(), /1\. Platypus deploy {2}\(not in list, Oct 1\)/);
    assert.deepEqual(t.questions.slice(0, 1), ["  Resume which? (1-1, Enter for none): "]);
    const rows = mainSessions(readRegistry(t.ctx.paths));
    assert.deepEqual(rows.map((s) => [s.guid, s.dir, s.desc]), [
      [history.beta.id, history.beta.cwd, "Platypus deploy"],
      [history.alpha.id, history.alpha.cwd, "Alpha work"],
    ]);
    const [launch] = launches(world);
    assert.deepEqual(launch.argv.slice(1, 5), [
      "--resume",
      history.beta.id,
      "-n",
      "desk - Platypus deploy",
    ]);
    assert.equal(launch.cwd, history.beta.cwd);
  } finally {
    t.cleanup();
    world.cleanup();
  }
});

Deno.test("picking a registered hit resumes it under its DESC and moves it to the top", async () => {
  const world = createFakeWorld();
  const { t, history } = setup(world, ["1"]);
  try {
    world.claudeScenario({ messages: ["carry on"] });
    await runFind(t.ctx, { terms: ["ocelot"] });
    const rows = mainSessions(readRegistry(t.ctx.paths)).map((s) => s.guid);
    assert.deepEqual(rows, [history.alpha.id], "nothing else registered");
    const [launch] = launches(world);
    assert.deepEqual(launch.argv.slice(1, 5), [
      "--resume",
      history.alpha.id,
      "-n",
      "desk - Alpha work",
    ]);
  } finally {
    t.cleanup();
    world.cleanup();
  }
});

for (const index of [true, false]) {
  Deno.test(`a hit whose session has only subagent transcripts left is not picked (index: ${index})`, async () => {
    const world = createFakeWorld();
    const { t, history } = setup(world, ["1"]);
    try {
      Deno.removeSync(history.beta.path);
      const before = Deno.readTextFileSync(t.ctx.paths.registryFile);
      assert.equal(await runFind(t.ctx, { terms: ["narwhal"], index }), 1);
      assert.match(t.stderr(), /own transcript is not at .*only its subagents' files are left/);
      assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), before, "no row for nothing");
      assert.deepEqual(launches(world), []);
    } finally {
      t.cleanup();
      world.cleanup();
    }
  });
}

Deno.test("a pick is a whole number as typed: 0x1, 1e0, +1 and 1.0 pick nothing", async () => {
  const world = createFakeWorld();
  const { t } = setup(world, ["0x1", "1e0", "+1", "1.0", ""]);
  try {
    assert.equal(await runFind(t.ctx, { terms: ["platypus"] }), 0);
    assert.equal(launches(world).length, 0);
    assert.equal(t.stdout().match(/Type a number from 1 to/g)?.length, 4);
  } finally {
    t.cleanup();
    world.cleanup();
  }
});

Deno.test("Enter picks nothing: no launch, no registry change", async () => {
  const world = createFakeWorld();
  const { t } = setup(world, [""]);
  try {
    const before = Deno.readTextFileSync(t.ctx.paths.registryFile);
    assert.equal(await runFind(t.ctx, { terms: ["platypus"] }), 0);
    assert.equal(launches(world).length, 0);
    assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), before);
  } finally {
    t.cleanup();
    world.cleanup();
  }
});

Deno.test("a hit open in another claude window is resumed only when the user says so", async () => {
  const world = createFakeWorld();
  const { t, history } = setup(world, ["1", "n"]);
  try {
    Deno.mkdirSync(t.ctx.paths.sessionsDir, { recursive: true });
    Deno.writeTextFileSync(
      `${t.ctx.paths.sessionsDir}/${Deno.pid}.json`,
      JSON.stringify({ pid: Deno.pid, sessionId: history.alpha.id, cwd: history.alpha.cwd }),
    );
    assert.equal(await runFind(t.ctx, { terms: ["quokka"] }), 1);
    assert.match(t.stdout(), /'Alpha work' is open in another claude window/);
    assert.equal(launches(world).length, 0);
  } finally {
    t.cleanup();
    world.cleanup();
  }
});

Deno.test("a hit whose transcript another window took away since the search is not added or resumed", async () => {
  const world = createFakeWorld();
  const { t, history } = setup(world, []);
  try {
    const registry = Deno.readFileSync(t.ctx.paths.registryFile);
    Deno.renameSync(history.beta.path, `${history.beta.path}.quarantined`);
    const code = await resumeFound(t.ctx, {
      sessionId: history.beta.id,
      dir: history.beta.cwd,
      title: "Platypus deploy",
      registered: null,
      lastActivity: null,
      transcript: history.beta.path,
      matches: [],
    });
    assert.equal(code, 1);
    assert.match(t.stderr(), /is not at .*moved away since the search.*nothing was added\./);
    assert.deepEqual(Deno.readFileSync(t.ctx.paths.registryFile), registry, "no row for nothing");
    assert.deepEqual(launches(world), []);
  } finally {
    t.cleanup();
    world.cleanup();
  }
});

Deno.test("picking a hit a line that does not parse names refuses, adding no second row", async () => {
  const world = createFakeWorld();
  const { t, history } = setup(world, ["1"]);
  try {
    world.claudeScenario({ messages: ["carry on"] });
    const text = Deno.readTextFileSync(t.ctx.paths.registryFile);
    // The old scripts wrote a typed name as it was: a '|' in it makes a line that does not parse.
    const registry = `${text}${history.beta.id}|${history.beta.cwd}|Platypus | deploy|\n`;
    Deno.writeTextFileSync(t.ctx.paths.registryFile, registry);
    await runFind(t.ctx, { terms: ["platypus"] });
    assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), registry);
    assert.match(t.stderr(), /Line \d+ of the session list names this session but does not parse/);
    assert.equal(launches(world).length, 0);
  } finally {
    t.cleanup();
    world.cleanup();
  }
});
