import assert from "node:assert/strict";
import { syncSessionIndex } from "../lib/core/session_index.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { sessionId, writeTranscript } from "./helpers/claude_home.ts";

Deno.test("sync keeps live entries, drops entries whose file is gone, adds new ones", () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.cwd();
    const [kept, gone, added] = [1, 2, 3].map(sessionId);
    writeTranscript(t.ctx.paths, dir, kept, { mtime: new Date("2026-11-01T00:00:00Z") });
    writeTranscript(t.ctx.paths, dir, added);
    const folder = projectDirFor(t.ctx.paths, dir);
    Deno.writeTextFileSync(`${folder}/not-a-session.jsonl`, "{}\n");
    const indexPath = `${folder}/sessions-index.json`;
    Deno.writeTextFileSync(
      indexPath,
      JSON.stringify({
        version: 1,
        entries: [
          { sessionId: kept, summary: "kept summary", fileMtime: 1 },
          { sessionId: gone, summary: "gone" },
        ],
        originalPath: "/original/path",
      }),
    );
    const changed = syncSessionIndex(t.ctx.paths, dir, {
      registered: [{ guid: added, dir, desc: "Registered name", tokens: "" }],
    });
    assert.equal(changed, true);
    const index = JSON.parse(Deno.readTextFileSync(indexPath));
    assert.deepEqual(index.entries.map((e: { sessionId: string }) => e.sessionId), [kept, added]);
    assert.equal(index.entries[0].summary, "kept summary");
    assert.equal(index.entries[0].fileMtime, new Date("2026-11-01T00:00:00Z").getTime());
    assert.equal(index.entries[1].firstPrompt, "Registered name");
    assert.equal(index.entries[1].projectPath, dir);
    assert.equal(index.entries[1].isSidechain, false);
    assert.equal(index.originalPath, "/original/path");
  } finally {
    t.cleanup();
  }
});

Deno.test("sync never creates an index and survives a broken one", () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.cwd();
    writeTranscript(t.ctx.paths, dir, sessionId(1));
    const indexPath = `${projectDirFor(t.ctx.paths, dir)}/sessions-index.json`;
    assert.equal(syncSessionIndex(t.ctx.paths, dir), false);
    assert.throws(() => Deno.statSync(indexPath), Deno.errors.NotFound);

    Deno.writeTextFileSync(indexPath, "{ not json");
    assert.equal(syncSessionIndex(t.ctx.paths, dir), true);
    const index = JSON.parse(Deno.readTextFileSync(indexPath));
    assert.equal(index.entries.length, 1);
    assert.equal(index.originalPath, dir);
    assert.equal(syncSessionIndex(t.ctx.paths, `${dir}/no-such-project`), false);
  } finally {
    t.cleanup();
  }
});
