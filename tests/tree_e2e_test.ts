import assert from "node:assert/strict";
import { join } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { lineageLogPath } from "../lib/store/lineage_log.ts";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { inMoveWorld } from "./helpers/move_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";

const ORIGINAL = "0a0a0a0a-0000-4000-8000-00000000000a";
const FORK = "f0f0f0f0-0000-4000-8000-00000000f0f0";

function seed(world: LaunchWorld): string {
  const folder = projectDirFor(world.paths, world.project);
  Deno.mkdirSync(folder, { recursive: true });
  save(folder, finishedSession({ sessionId: ORIGINAL, cwd: world.project }));
  Deno.writeTextFileSync(
    world.paths.registryFile,
    `${ORIGINAL}|${world.project}|Seeded work|98765\n`,
  );
  return folder;
}

/** A family made by real flows: a resume that claude forked (the row follows), then a refresh. */
async function forkThenRefresh(world: LaunchWorld): Promise<string> {
  seed(world);
  world.claudeScenario({ fork: true, forkId: FORK, messages: ["carry on"] });
  const noCmv = world.env.CLAUDECM_CMV;
  world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
  const forked = await world.run(["1"]);
  assert.equal(forked.code, 0, forked.stderr);
  world.env.CLAUDECM_CMV = noCmv;
  world.claudeScenario({ messages: ["more"] });
  world.cmvScenario({ benchmark: { preTrimTokens: 80_000, reductionPercent: 9.6 } });
  // Refresh? y; name: Enter (keep); edit the prompt? n.
  const refreshed = await world.run(["1"], { stdin: "y\n\nn\n" });
  assert.equal(refreshed.code, 0, refreshed.stderr);
  assert.match(refreshed.stderr, /Fresh session created: /);
  const [fresh] = world.sessions();
  assert.notEqual(fresh.guid, FORK);
  return fresh.guid;
}

Deno.test("tree: a fork claudecm followed and a refresh, from the real flows, as one family", async () => {
  const world = createLaunchWorld();
  try {
    const fresh = await forkThenRefresh(world);
    const text = await world.run(["tree", "1"]);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(
      text.stdout,
      `Run the tests  ${ORIGINAL}  [not in the list, set aside in claudecm's backup]\n` +
        `└─ forked (claude went on under a new id): Seeded work (old)  ${FORK}  [#2]\n` +
        `   └─ refreshed into: Seeded work  ${fresh}  [#1]\n`,
    );
    const json = JSON.parse((await world.run(["tree", FORK, "--json"])).stdout);
    assert.equal(json.session, FORK);
    assert.deepEqual(
      json.nodes.map((n: { id: string; listNumber: number | null; transcript: string }) => [
        n.id,
        n.listNumber,
        n.transcript,
      ]),
      [[ORIGINAL, null, "backup"], [FORK, 2, "projects"], [fresh, 1, "projects"]],
    );
    assert.deepEqual(
      json.edges.map((e: { from: string; to: string; type: string; recordedBy: string }) => [
        e.from,
        e.to,
        e.type,
        e.recordedBy,
      ]),
      [[ORIGINAL, FORK, "fork", "claudecm"], [FORK, fresh, "refresh", "claudecm"]],
    );
    // With no session: the same family, the only one with more than one member.
    const all = JSON.parse((await world.run(["tree", "--json"])).stdout);
    assert.equal(all.families.length, 1);
    assert.equal(all.families[0].nodes.length, 3);
  } finally {
    world.cleanup();
  }
});

Deno.test("tree: claude's own records (a /branch copy, continued-in, a subagent's fork-context-ref), archived and deleted members", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    const branch = "b0b0b0b0-0000-4000-8000-00000000b0b0";
    const successor = "c0c0c0c0-0000-4000-8000-00000000c0c0";
    const gone = "d0d0d0d0-0000-4000-8000-00000000d0d0";
    const forker = "e0e0e0e0-0000-4000-8000-00000000e0e0";
    // /branch stamps every copied line with the session it came from.
    const copy = new TranscriptBuilder({ sessionId: branch, cwd: world.project });
    copy.metadata({ customTitle: "The branch" });
    copy.raw(JSON.stringify({
      type: "user",
      sessionId: branch,
      forkedFrom: { sessionId: ORIGINAL, messageUuid: "m1" },
      message: { role: "user", content: "copied" },
    }));
    save(folder, copy);
    // The original went on in another session, which claude has since deleted.
    Deno.writeTextFileSync(
      join(folder, `${ORIGINAL}.jsonl`),
      JSON.stringify({ type: "continued-in", sessionId: ORIGINAL, continuedInSessionId: gone }) +
        "\n",
      { append: true },
    );
    // A session whose subagent forked the original's context.
    save(folder, new TranscriptBuilder({ sessionId: forker, cwd: world.project }).prompt("x"));
    Deno.mkdirSync(join(folder, forker, "subagents"), { recursive: true });
    Deno.writeTextFileSync(
      join(folder, forker, "subagents", "agent-a1.jsonl"),
      JSON.stringify({
        type: "fork-context-ref",
        agentId: "a1",
        parentSessionId: ORIGINAL,
        parentLastUuid: "m2",
        contextLength: 4,
      }) + "\n",
    );
    save(folder, new TranscriptBuilder({ sessionId: successor, cwd: world.project }).prompt("y"));
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${ORIGINAL}|${world.project}|Seeded work|98765\n[archived]\n${branch}|${world.project}|Old branch|\n`,
    );
    const run = await world.run(["tree", "Seeded work"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      `Seeded work  ${ORIGINAL}  [#1]\n` +
        `├─ branched (/branch): Old branch  ${branch}  [archived]\n` +
        `├─ continued in: (no name)  ${gone}  [not in the list, deleted]\n` +
        `└─ subagent forked its context: (no name)  ${forker}  [not in the list]\n`,
    );
    // A session with no relatives: said so.
    const alone = await world.run(["tree", successor]);
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stdout, /\(no relatives recorded/);
    const missing = await world.run(["tree", "12345678-0000-4000-8000-000000000000"]);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /^claudecm: no session 12345678-.* in the list or on disk\n$/);
  } finally {
    world.cleanup();
  }
});

Deno.test("tree: a move between folders is recorded and shown under the session", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    const moved = await world.run(["move", world.old, world.renamed]);
    assert.equal(moved.code, 0, moved.stderr);
    const json = JSON.parse((await world.run(["tree", world.ids.main, "--json"])).stdout);
    assert.deepEqual(
      json.nodes[0].moves.map((m: { from: string; to: string }) => [m.from, m.to]),
      [[world.old, world.renamed]],
    );
    const text = await world.run(["tree", world.ids.main]);
    assert.match(text.stdout, new RegExp(`\n   moved from .* to .*\n`));
    assert.ok(Deno.readTextFileSync(lineageLogPath(world.paths)).includes('"kind":"move"'));
  });
});

Deno.test("tree: a --fork-session branch and a trim, from the real flows", async () => {
  const world = createLaunchWorld();
  try {
    seed(world);
    world.claudeScenario({ forkId: FORK, messages: ["try another way"] });
    const noCmv = world.env.CLAUDECM_CMV;
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const branched = await world.run(["-r", ORIGINAL, "--fork-session"], { stdin: "Other way\n" });
    assert.equal(branched.code, 0, branched.stderr);
    world.env.CLAUDECM_CMV = noCmv;
    world.claudeScenario({ messages: ["more"] });
    world.cmvScenario({
      benchmark: { preTrimTokens: 5000, reductionPercent: 40, breakEvenTurns: 3 },
    });
    // Resume the original (#2 now, under the branch) and take the trim.
    const trimmed = await world.run(["resume", ORIGINAL], { stdin: "y\n" });
    assert.equal(trimmed.code, 0, trimmed.stderr);
    const trimmedId = world.sessions().find((s) => s.desc === "Seeded work")!.guid;
    assert.notEqual(trimmedId, ORIGINAL);
    const json = JSON.parse((await world.run(["tree", trimmedId, "--json"])).stdout);
    assert.deepEqual(
      json.edges.map((e: { from: string; to: string; type: string }) => [e.from, e.to, e.type]),
      [[ORIGINAL, FORK, "fork-session"], [ORIGINAL, trimmedId, "trim"]],
    );
    const original = json.nodes.find((n: { id: string }) => n.id === ORIGINAL);
    assert.equal(original.transcript, "backup", "the pre-trim original is set aside");
    // Its title is the name claudecm launched it with, '<machine> - ' and all: shown without it.
    assert.equal(original.name, "Seeded work");
    assert.doesNotMatch((await world.run(["tree", trimmedId])).stdout, /desk - /);
    const exported = await world.run(["export", ORIGINAL]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /^# Seeded work\n/);
    // Set aside by the trim, as tree says, not deleted by claude (the vault keeps a copy too).
    assert.match(exported.stdout, /- \*\*Read from:\*\* claudecm's backup folder/);
    // The list has no row for it, but tree showed its id: its first 8 characters name it too.
    const byPrefix = await world.run(["export", ORIGINAL.slice(0, 8)]);
    assert.equal(byPrefix.code, 0, byPrefix.stderr);
    assert.equal(byPrefix.stdout, exported.stdout);
    assert.equal(
      (await world.run(["tree", ORIGINAL.slice(0, 8), "--json"])).stdout,
      (await world.run(["tree", ORIGINAL, "--json"])).stdout,
    );
    const none = await world.run(["export", "abcdef12"]);
    assert.equal(none.code, 3);
    assert.match(none.stderr, /no such session: abcdef12/);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "tree: a transcript that is a link to a file elsewhere is there, with its records",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const folder = seed(world);
      const successor = "c0c0c0c0-0000-4000-8000-00000000c0c0";
      const own = join(folder, `${ORIGINAL}.jsonl`);
      Deno.writeTextFileSync(
        own,
        JSON.stringify({
          type: "continued-in",
          sessionId: ORIGINAL,
          continuedInSessionId: successor,
        }) + "\n",
        { append: true },
      );
      const elsewhere = join(world.dir, "kept.jsonl");
      Deno.renameSync(own, elsewhere);
      Deno.symlinkSync(elsewhere, own);
      // Its subagent's transcript, a link too, says whose context it forked.
      const parent = "e0e0e0e0-0000-4000-8000-00000000e0e0";
      const agent = join(world.dir, "agent.jsonl");
      Deno.writeTextFileSync(
        agent,
        JSON.stringify({ type: "fork-context-ref", agentId: "a1", parentSessionId: parent }) + "\n",
      );
      Deno.mkdirSync(join(folder, ORIGINAL, "subagents"), { recursive: true });
      Deno.symlinkSync(agent, join(folder, ORIGINAL, "subagents", "agent-a1.jsonl"));
      const run = await world.run(["tree", "1"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(
        run.stdout,
        `(no name)  ${parent}  [not in the list, deleted]\n` +
          `└─ subagent forked its context: Seeded work  ${ORIGINAL}  [#1]\n` +
          `   └─ continued in: (no name)  ${successor}  [not in the list, deleted]\n`,
      );
    } finally {
      world.cleanup();
    }
  },
});
