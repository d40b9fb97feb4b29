import assert from "node:assert/strict";
import { syncSessionIndex } from "../lib/store/session_index_sync.ts";
import { emptyRegistry, parseRegistry } from "../lib/core/registry.ts";
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
    const changed = syncSessionIndex(
      t.ctx.paths,
      dir,
      parseRegistry(`${added}|${dir}|Registered name|\n`),
    );
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
    assert.equal(syncSessionIndex(t.ctx.paths, dir, emptyRegistry()), false);
    assert.throws(() => Deno.statSync(indexPath), Deno.errors.NotFound);

    Deno.writeTextFileSync(indexPath, "{ not json");
    assert.equal(syncSessionIndex(t.ctx.paths, dir, emptyRegistry()), true);
    const index = JSON.parse(Deno.readTextFileSync(indexPath));
    assert.equal(index.entries.length, 1);
    assert.equal(index.originalPath, dir);
    assert.equal(syncSessionIndex(t.ctx.paths, `${dir}/no-such-project`, emptyRegistry()), false);
  } finally {
    t.cleanup();
  }
});

Deno.test("every registered session's entry carries its own DESC and DIR; wrong labels are corrected", () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.cwd();
    const [first, second, stranger] = [1, 2, 3].map(sessionId);
    for (const guid of [first, second, stranger]) writeTranscript(t.ctx.paths, dir, guid);
    const indexPath = `${projectDirFor(t.ctx.paths, dir)}/sessions-index.json`;
    Deno.writeTextFileSync(
      indexPath,
      JSON.stringify({
        version: 1,
        entries: [
          { sessionId: first, firstPrompt: "Project", projectPath: "/stale/path" },
          { sessionId: stranger, firstPrompt: "claude's own words", projectPath: "/elsewhere" },
        ],
        originalPath: dir,
      }),
    );
    const registry = parseRegistry(
      `${first}|${dir}|Refactor The Parser|\n${second}|${dir}|Second Thing|10\n`,
    );
    assert.equal(syncSessionIndex(t.ctx.paths, dir, registry), true);
    const entries = JSON.parse(Deno.readTextFileSync(indexPath)).entries;
    const byId = new Map(entries.map((e: { sessionId: string }) => [e.sessionId, e]));
    const labels = (guid: string) => {
      const entry = byId.get(guid) as { firstPrompt: string; projectPath: string };
      return [entry.firstPrompt, entry.projectPath];
    };
    assert.deepEqual(labels(first), ["Refactor The Parser", dir]);
    assert.deepEqual(labels(second), ["Second Thing", dir]);
    assert.deepEqual(labels(stranger), ["claude's own words", "/elsewhere"], "unregistered: kept");
    assert.equal(syncSessionIndex(t.ctx.paths, dir, registry), false, "no change, no write");
  } finally {
    t.cleanup();
  }
});
