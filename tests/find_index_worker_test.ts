import assert from "node:assert/strict";
import { join } from "node:path";
import { findIndexPath } from "../lib/app/find/index_search.ts";
import { updateIndex } from "../lib/app/find/index_update.ts";
import { FindIndexDb } from "../lib/store/find_index_db.ts";
import { generateTranscript } from "../scripts/gen_transcript.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { failReadsAfter, writeFindHistory } from "./helpers/find_fixtures.ts";
import { createTestContext } from "./helpers/test_context.ts";

/** Every row of the index, in a comparable form. */
function dump(db: FindIndexDb): unknown {
  return {
    files: db.db.prepare(
      "SELECT path, session_id, offset, prefix_hash, next_doc, facts FROM files ORDER BY path",
    ).all(),
    docs: db.db.prepare(
      "SELECT f.path, d.id & 4294967295 AS n, d.role, d.ts, d.line_at, d.line_length, d.part " +
        "FROM docs d JOIN files f ON f.id = d.id >> 32 ORDER BY f.path, n",
    ).all(),
    words: ["ocelot", "quokka", "tamarin", "narwhal"].map((word) =>
      db.db.prepare("SELECT count(*) AS n FROM docs_fts WHERE docs_fts MATCH ?").get(word)?.n
    ),
  };
}

Deno.test("an update read in the worker indexes exactly what one read on the main thread does", async () => {
  const t = createTestContext({ interactive: false });
  try {
    const history = writeFindHistory(t.ctx, t.home);
    generateTranscript(join(history.alpha.dir, `${crypto.randomUUID()}.jsonl`), {
      bytes: 600_000,
      cwd: history.alpha.cwd,
    });
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    const path = findIndexPath(t.ctx.paths);
    const dumps = [];
    for (const workerBytes of [Infinity, 0]) {
      const db = FindIndexDb.open(`${path}.${workerBytes}`, { writer: true })!;
      try {
        const stats = await updateIndex(db, t.ctx.paths.projectsDir, { workerBytes });
        assert.deepEqual(stats.unreadable, []);
        dumps.push({ stats: { files: stats.files, bytes: stats.bytes }, index: dump(db) });
      } finally {
        db.close();
      }
    }
    assert.ok((dumps[0].index as { docs: unknown[] }).docs.length > 20, "the fixture is real");
    assert.deepEqual(dumps[1], dumps[0]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a file gone before the worker reads it is reported unreadable and left with no row", async () => {
  const t = createTestContext({ interactive: false });
  try {
    const history = writeFindHistory(t.ctx, t.home);
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    const db = FindIndexDb.open(findIndexPath(t.ctx.paths), { writer: true })!;
    try {
      const realStat = Deno.statSync;
      // The listing sees alpha; the read that follows finds it gone.
      Deno.statSync = (file: string | URL) => {
        const info = realStat(file);
        if (String(file) === history.alpha.path) Deno.removeSync(history.alpha.path);
        return info;
      };
      let stats;
      try {
        stats = await updateIndex(db, t.ctx.paths.projectsDir, { workerBytes: 0 });
      } finally {
        Deno.statSync = realStat;
      }
      assert.deepEqual(stats.unreadable, [history.alpha.path]);
      const rows = db.db.prepare("SELECT count(*) AS n FROM files WHERE path = ?")
        .get(history.alpha.path)?.n;
      assert.equal(rows, 0);
    } finally {
      db.close();
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("a transcript that fails after some of its text was stored keeps no row and no text", async () => {
  const t = createTestContext({ interactive: false });
  let failing: ReturnType<typeof failReadsAfter> | undefined;
  try {
    const history = writeFindHistory(t.ctx, t.home);
    const big = new TranscriptBuilder({ cwd: history.alpha.cwd, sessionId: history.alpha.id });
    for (let i = 0; i < 3000; i++) big.text(`the tamarin paragraph ${i} ${"padding ".repeat(120)}`);
    Deno.writeTextFileSync(history.alpha.path, big.toString(), { append: true });
    // Past the first part of its text (index_parse.ts hands text over a megabyte at a time).
    failing = failReadsAfter(history.alpha.path, 20);
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    const db = FindIndexDb.open(findIndexPath(t.ctx.paths), { writer: true })!;
    try {
      const stats = await updateIndex(db, t.ctx.paths.projectsDir, { workerBytes: Infinity });
      assert.ok(failing.reads() > 20, "the failure came mid-file");
      assert.deepEqual(stats.unreadable, [history.alpha.path]);
      const count = (sql: string, ...params: string[]) =>
        Number(db.db.prepare(sql).get(...params)?.n);
      assert.equal(count("SELECT count(*) AS n FROM files WHERE path = ?", history.alpha.path), 0);
      assert.equal(count("SELECT count(*) AS n FROM docs_fts WHERE docs_fts MATCH 'tamarin'"), 0);
      assert.equal(
        count("SELECT count(*) AS n FROM docs_fts"),
        count("SELECT count(*) AS n FROM docs"),
      );
    } finally {
      db.close();
    }
  } finally {
    failing?.restore();
    t.cleanup();
  }
});
