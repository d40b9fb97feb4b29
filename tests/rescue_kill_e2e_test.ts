/**
 * `rescue --all` killed with SIGKILL at random points (issue 17, "Done
 * means"): the transcripts are never touched, and the next run finishes the
 * job: each dead session recovered in exactly one thread, the derived files
 * rebuilt from the threads on disk, no temporary file left. The kill points
 * come from a seeded generator printed with any failure.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { buildRescueWorld } from "../fixtures/rescue/world.ts";
import { createFakeWorld } from "./helpers/fakes.ts";
import { claudecmCommand, runClaudecm } from "./helpers/run_cli.ts";
import { treeState } from "./helpers/tree_state.ts";
import { readDirOrEmpty } from "../lib/core/fs_checks.ts";

const SEED = Number(Deno.env.get("HOSTILE_SEED") ?? Date.now() % 100_000);
const TRIALS = 8;

Deno.test("rescue --all killed at random points: the next run recovers each session once", async () => {
  let state = SEED;
  const next = () => (state = (state * 48271) % 2147483647) / 2147483647;
  const kills: string[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    const fake = createFakeWorld();
    try {
      const w = buildRescueWorld(fake.home, new Date());
      const transcripts = treeState(join(fake.home, ".claude"));
      const delayMs = 20 + next() * 220;
      const child = claudecmCommand(["rescue", "--all"], {
        env: fake.env,
        cwd: w.workspace,
        discardOutput: true,
        noStdin: true,
      }).spawn();
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      try {
        child.kill("SIGKILL");
        kills.push(`${Math.round(delayMs)}ms`);
      } catch {
        kills.push("finished first");
      }
      await child.status;
      const rerun = await runClaudecm(["rescue", "--all", "--json"], {
        env: fake.env,
        cwd: w.workspace,
      });
      assert.equal(rerun.code, 0, `seed ${SEED}: ${rerun.stderr}`);
      assert.deepEqual(treeState(join(fake.home, ".claude")), transcripts, "transcripts untouched");
      const names = readDirOrEmpty(w.threadsDir).map((entry) => entry.name);
      assert.deepEqual(names.filter((name) => /\.tmp-\d+$/.test(name)), [], `seed ${SEED}`);
      const threads = names.filter((name) => name.endsWith(".json") && name !== "handoff.json")
        .map((name) => JSON.parse(Deno.readTextFileSync(join(w.threadsDir, name))));
      const sessions = threads.map((thread) =>
        JSON.stringify(thread).match(
          /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/,
        )?.[0]
      );
      assert.equal(new Set(sessions).size, sessions.length, `one thread each (seed ${SEED})`);
      for (const id of [w.ids.dead, w.ids.compactionError]) {
        assert.ok(sessions.includes(id), `${id} recovered (seed ${SEED})`);
      }
      const index = Deno.readTextFileSync(join(w.threadsDir, "INDEX.md"));
      for (const thread of names.filter((name) => name.startsWith("T-"))) {
        const id = thread.replace(/\.json$/, "");
        assert.equal(index.split(id).length - 1, 1, `${id} in INDEX.md once (seed ${SEED})`);
      }
      JSON.parse(Deno.readTextFileSync(join(w.threadsDir, "handoff.json")));
    } finally {
      fake.cleanup();
    }
  }
  console.log(`seed ${SEED}: killed at ${kills.join(", ")}`);
});
