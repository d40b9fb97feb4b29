import assert from "node:assert/strict";
import { createMoveWorld, type MoveWorld } from "./helpers/move_world.ts";
import { claudecmCommand } from "./helpers/run_cli.ts";
import { encodeProjectKey } from "../lib/core/project_key.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { readDirOrEmpty } from "../lib/core/fs_checks.ts";

const SESSIONS = 600;
const TRIALS = 4;

/** The end state with the world's own temp dir named alike, so two worlds compare. */
function endState(world: MoveWorld): string[] {
  const key = encodeProjectKey(world.dir);
  // Transcripts hold the dir as a JSON string: on Windows its backslashes are doubled there.
  const inJson = JSON.stringify(world.dir).slice(1, -1);
  return world.state().map((text) =>
    text.replaceAll(key, "<key>").replaceAll(world.dir, "<world>").replaceAll(inJson, "<world>")
  ).sort();
}

async function finishMove(world: MoveWorld): Promise<void> {
  const output = await claudecmCommand(["move", world.old, world.renamed], {
    env: world.env,
    cwd: world.dir,
    noStdin: true,
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
}

/**
 * Kill the move once `count` entries stand in NEW's project folder (a point
 * inside the renames), or when it ends first; returns whether it was killed.
 */
async function killMidway(world: MoveWorld, count: number): Promise<boolean> {
  const child = claudecmCommand(["move", world.old, world.renamed], {
    env: world.env,
    cwd: world.dir,
    noStdin: true,
    discardOutput: true,
  }).spawn();
  let done = false;
  child.status.then(() => done = true);
  const target = projectDirFor(world.paths, world.renamed);
  while (!done && readDirOrEmpty(target).length < count) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (!done) child.kill("SIGKILL");
  return !(await child.status).success;
}

Deno.test("move killed with SIGKILL at random points: running it again reaches the same end state", async () => {
  const reference = createMoveWorld({ manySessions: SESSIONS });
  let expected: string[];
  try {
    reference.moveAway();
    await finishMove(reference);
    expected = endState(reference);
  } finally {
    reference.cleanup();
  }
  const killedAt: number[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    const world = createMoveWorld({ manySessions: SESSIONS });
    try {
      world.moveAway();
      const count = 1 + Math.floor(Math.random() * SESSIONS / 2);
      if (await killMidway(world, count)) {
        killedAt.push(readDirOrEmpty(projectDirFor(world.paths, world.renamed)).length);
      }
      await finishMove(world);
      assert.deepEqual(endState(world), expected, `killed after ${count} entries`);
    } finally {
      world.cleanup();
    }
  }
  assert.ok(killedAt.length > 0, "at least one run was killed midway");
  console.log(`entries in NEW's folder when killed: ${killedAt.join(", ")} of ${SESSIONS / 2 + 3}`);
});
