import assert from "node:assert/strict";
import { join } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { lineageCachePath } from "../lib/store/lineage_cache.ts";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";

const ORIGINAL = "0a0a0a0a-0000-4000-8000-00000000000a";
const BRANCH = "b0b0b0b0-0000-4000-8000-00000000b0b0";
const SUCCESSOR = "c0c0c0c0-0000-4000-8000-00000000c0c0";
const FORKER = "e0e0e0e0-0000-4000-8000-00000000e0e0";

/** The family's edges as `tree --json` gives them, each `from>to type`. */
async function edges(world: LaunchWorld): Promise<string[]> {
  const run = await world.run(["tree", ORIGINAL, "--json"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  return JSON.parse(run.stdout).edges.map((e: { from: string; to: string; type: string }) =>
    `${e.from.slice(0, 2)}>${e.to.slice(0, 2)} ${e.type}`
  ).sort();
}

function append(path: string, record: unknown): void {
  Deno.writeTextFileSync(path, `${JSON.stringify(record)}\n`, { append: true });
}

Deno.test("tree run again after transcripts changed shows the change, whatever its cache holds", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    const original = save(folder, finishedSession({ sessionId: ORIGINAL, cwd: world.project }));
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${ORIGINAL}|${world.project}|Seeded work|98765\n`,
    );
    assert.deepEqual(await edges(world), []);
    const cache = lineageCachePath(world.paths);
    assert.ok(Deno.statSync(cache).isFile, "the first run keeps what it read");

    // Appended to: the original went on in another session.
    append(original, {
      type: "continued-in",
      sessionId: ORIGINAL,
      continuedInSessionId: SUCCESSOR,
    });
    assert.deepEqual(await edges(world), ["0a>c0 continued-in"]);

    // A new /branch copy, and a subagent of a new session that forked the original's context.
    const copy = new TranscriptBuilder({ sessionId: BRANCH, cwd: world.project }).prompt("x");
    const branch = save(folder, copy);
    append(branch, {
      type: "user",
      sessionId: BRANCH,
      forkedFrom: { sessionId: ORIGINAL, messageUuid: "m1" },
      message: { role: "user", content: "copied" },
    });
    save(folder, new TranscriptBuilder({ sessionId: FORKER, cwd: world.project }).prompt("y"));
    const agent = join(folder, FORKER, "subagents", "agent-a1.jsonl");
    Deno.mkdirSync(join(agent, ".."), { recursive: true });
    append(agent, { type: "fork-context-ref", agentId: "a1", parentSessionId: ORIGINAL });
    const all = ["0a>c0 continued-in", "0a>b0 branch", "0a>e0 subagent-fork"];
    assert.deepEqual(await edges(world), all.sort());

    // Rewritten in place (the same file, its first lines kept): the copy's record is gone.
    const before = Deno.readTextFileSync(branch);
    Deno.writeTextFileSync(
      branch,
      before.slice(0, before.lastIndexOf("\n", before.length - 2) + 1),
    );
    // The subagent's file is deleted: its record, and the cache's entry, go with it.
    Deno.removeSync(join(folder, FORKER), { recursive: true });
    assert.deepEqual(await edges(world), ["0a>c0 continued-in"]);
    assert.ok(!Deno.readTextFileSync(cache).includes("agent-a1"), "a file gone leaves the cache");

    // A damaged cache is no error: the tree is the same, and the cache is whole again.
    Deno.writeTextFileSync(cache, '{"format": 1, "files": {"');
    assert.deepEqual(await edges(world), ["0a>c0 continued-in"]);
    assert.equal(typeof JSON.parse(Deno.readTextFileSync(cache)).files, "object");

    // A home that takes no cache (a folder in its place): still the same tree.
    Deno.removeSync(cache);
    Deno.mkdirSync(cache);
    append(original, { type: "continued-in", sessionId: ORIGINAL, continuedInSessionId: BRANCH });
    assert.deepEqual(await edges(world), ["0a>b0 continued-in", "0a>c0 continued-in"]);
    assert.deepEqual(
      [...Deno.readDirSync(world.paths.cmHome)].filter((e) => e.name.includes(".tmp-")),
      [],
      "no temporary file is left beside it",
    );
  } finally {
    world.cleanup();
  }
});
