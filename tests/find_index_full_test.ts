import assert from "node:assert/strict";
import { join } from "node:path";
import { type FindJson, runFind } from "../lib/app/find/find.ts";
import { findIndexBytes, findIndexPath, refreshIndex } from "../lib/app/find/index_search.ts";
import { UserError } from "../lib/core/errors.ts";
import { isFile } from "../lib/core/fs_checks.ts";
import { FindIndexDb } from "../lib/store/find_index_db.ts";
import { createMemoryOutput } from "../lib/ui/output.ts";
import { generateTranscript } from "../scripts/gen_transcript.ts";
import { writeFindHistory } from "./helpers/find_fixtures.ts";
import { createTestContext } from "./helpers/test_context.ts";

// A full disk, made by capping the database's pages: SQLite fails the write with SQLITE_FULL, as
// it does when the file system has no room (issue 17.14: the old code died with "cannot rollback
// - no transaction is active" and left an 8 MB WAL behind).
for (const existing of [false, true]) {
  Deno.test(`a full disk ${existing ? "on an existing index" : "on a first build"}: rolled back, WAL truncated, one line, no fuller`, async () => {
    const t = createTestContext({ interactive: false });
    try {
      const history = writeFindHistory(t.ctx, t.home);
      const path = findIndexPath(t.ctx.paths);
      Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
      if (existing) {
        const first = FindIndexDb.open(path, { writer: true })!;
        await refreshIndex(t.ctx, first, { path, before: 0 });
        first.close();
      }
      generateTranscript(join(history.alpha.dir, `${crypto.randomUUID()}.jsonl`), {
        bytes: 3_000_000,
        cwd: history.alpha.cwd,
      });
      const db = FindIndexDb.open(path, { writer: true })!;
      const before = findIndexBytes(path);
      const pages = Number(db.db.prepare("PRAGMA page_count").get()?.page_count);
      db.db.exec(`PRAGMA max_page_count = ${pages + 4}`);
      await assert.rejects(
        () => refreshIndex(t.ctx, db, { path, before }),
        (error: Error) => {
          assert.ok(error instanceof UserError, String(error));
          assert.ok(!error.message.includes("\n"), "one line");
          assert.ok(error.message.includes(path), "names the index");
          // find then searches without the index (issue 30 item 11): full_disk_e2e_test.ts.
          assert.match(error.message, /cannot be written: the disk is full/);
          return true;
        },
      );
      assert.ok(findIndexBytes(path) <= before, "the disk is no fuller than before");
      const wal = `${path}-wal`;
      assert.ok(!isFile(wal) || Deno.statSync(wal).size === 0, "no WAL left behind");
      if (existing) {
        assert.ok(isFile(path), "a good index is kept when it can be");
        const index = FindIndexDb.open(path, { writer: false })!;
        assert.equal(index.files().size, 4, "as it was before the failed update");
        index.close();
      }
      // With room again, find works and sees everything.
      const out = createMemoryOutput();
      t.ctx.out = out;
      await runFind(t.ctx, { terms: ["ocelot"], json: true });
      assert.equal((JSON.parse(out.text()) as FindJson).results.length, 2);
    } finally {
      t.cleanup();
    }
  });
}
