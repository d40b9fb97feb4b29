import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { createMoveWorld, type MoveWorld } from "./helpers/move_world.ts";
import { createTestContext, type TestContext } from "./helpers/test_context.ts";
import { treeState } from "./helpers/tree_state.ts";
import { openInAnotherWindow } from "./helpers/launch_world.ts";
import { runMove } from "../lib/app/move/move.ts";
import { applyMove } from "../lib/app/move/move_apply.ts";
import { MoveRefusedError, planMove } from "../lib/app/move/move_plan.ts";

function inFlow(
  options: { answers?: string[]; interactive?: boolean },
  test: (world: MoveWorld, t: TestContext) => Promise<void>,
): () => Promise<void> {
  return async () => {
    const world = createMoveWorld();
    const t = createTestContext({ env: world.env, cwd: world.dir, ...options });
    try {
      world.moveAway();
      await test(world, t);
    } finally {
      t.cleanup();
      world.cleanup();
    }
  };
}

Deno.test(
  "move in a terminal: the plan, then the question; No (or no answer) writes nothing",
  inFlow({ answers: ["n"] }, async (world, t) => {
    const tree = treeState(world.dir);
    assert.equal(await runMove(t.ctx, { from: world.old, to: world.renamed }), 0);
    assert.deepEqual(t.questions, ["  Move them? [y/N]: "]);
    assert.match(t.stdout(), /Rows in sessions\.txt: 3[\s\S]*Not moved\./);
    assert.deepEqual(treeState(world.dir), tree);
  }),
);

Deno.test(
  "move in a terminal: yes moves",
  inFlow({ answers: ["y"] }, async (world, t) => {
    assert.equal(await runMove(t.ctx, { from: world.old, to: world.renamed }), 0);
    assert.match(t.stdout(), /Moved 3 transcript\(s\), 3 row\(s\) and 2 settings entries/);
    const backups = [...Deno.readDirSync(world.paths.backupDir)].map((e) => e.name);
    assert.equal(backups.length, 1);
    assert.equal(
      Deno.readTextFileSync(join(world.paths.backupDir, backups[0])),
      world.registryText,
      "the rows as they were, in backup/",
    );
  }),
);

Deno.test(
  "move --json never asks and reports what moved",
  inFlow({}, async (world, t) => {
    assert.equal(await runMove(t.ctx, { from: world.old, to: world.renamed, json: true }), 0);
    assert.deepEqual(t.questions, []);
    const report = JSON.parse(t.stdout());
    assert.equal(report.status, "moved");
    assert.deepEqual(report.rows.map((r: { to: string }) => r.to), [
      world.renamed,
      join(world.renamed, "sub"),
      world.renamed,
    ]);
  }),
);

Deno.test(
  "move: NEW's own .claude.json entry is kept; OLD's stays beside it",
  inFlow({ interactive: false }, async (world, t) => {
    const text = Deno.readTextFileSync(world.paths.claudeJsonFile).replace(
      '"projects": {\n',
      `"projects": {\n    ${JSON.stringify(world.renamed)}: {"hasTrustDialogAccepted": true},\n`,
    );
    Deno.writeTextFileSync(world.paths.claudeJsonFile, text);
    assert.equal(await runMove(t.ctx, { from: world.old, to: world.renamed }), 0);
    const after = JSON.parse(Deno.readTextFileSync(world.paths.claudeJsonFile)).projects;
    assert.deepEqual(after[world.renamed], { hasTrustDialogAccepted: true });
    assert.ok(world.old in after, "OLD's entry left in place, not lost");
    assert.ok(join(world.renamed, "sub") in after);
  }),
);

Deno.test(
  "move: a differing file that appears after the plan stops it in one line; a rerun finishes once it is gone",
  inFlow({ interactive: false }, async (world, t) => {
    const plan = planMove(t.ctx, { from: world.old, to: world.renamed });
    const last = plan.files.findLast((file) => file.kind === "transcript")!;
    Deno.mkdirSync(dirname(last.to), { recursive: true });
    Deno.writeTextFileSync(last.to, "{}\n");
    await assert.rejects(() => applyMove(t.ctx, plan), MoveRefusedError, "stopped halfway");
    assert.equal(Deno.readTextFileSync(last.to), "{}\n");
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), world.registryText, "rows last");
    Deno.removeSync(last.to);
    assert.equal(await runMove(t.ctx, { from: world.old, to: world.renamed }), 0);
    assert.ok(!(Deno.readTextFileSync(world.paths.registryFile).includes(`${world.old}|`)));
  }),
);

Deno.test(
  "move: each session is checked again under the lock; one opened or written since the plan stops it",
  inFlow({ interactive: false }, async (world, t) => {
    const plan = planMove(t.ctx, { from: world.old, to: world.renamed });
    const transcript = plan.files.find((f) =>
      f.guid === world.ids.loose && f.kind === "transcript"
    )!;
    Deno.writeTextFileSync(transcript.from, '{"type":"user"}\n', { append: true });
    await assert.rejects(() => applyMove(t.ctx, plan), MoveRefusedError, "changed since");
    const again = planMove(t.ctx, { from: world.old, to: world.renamed });
    openInAnotherWindow(world, again.files.find((f) => f.kind === "transcript")!.guid!);
    await assert.rejects(
      () => applyMove(t.ctx, again),
      MoveRefusedError,
      "open in a claude window",
    );
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), world.registryText, "rows last");
  }),
);
