import assert from "node:assert/strict";
import { findIndexPath } from "../lib/app/find/index_search.ts";
import { updateIndex } from "../lib/app/find/index_update.ts";
import { FindIndexDb } from "../lib/store/find_index_db.ts";
import { INDEXED_ROLES } from "../lib/store/find_index_schema.ts";
import { filesOfSessions, latestHits } from "../lib/store/find_index_query.ts";
import { writeFindHistory } from "./helpers/find_fixtures.ts";
import { createTestContext } from "./helpers/test_context.ts";

Deno.test("more sessions than SQLite binds to one statement (--limit 40000) are asked in runs", async () => {
  const t = createTestContext();
  const history = writeFindHistory(t.ctx, t.home);
  const db = FindIndexDb.open(findIndexPath(t.ctx.paths), { writer: true })!;
  try {
    await updateIndex(db, t.ctx.paths.projectsDir);
    const many = Array.from({ length: 40_000 }, (_, i) => `none-${i}`);
    many[33_000] = history.alpha.id;
    const query = { match: '"quokka"', roles: [...INDEXED_ROLES] };
    const hits = latestHits(db, query, { sessionIds: many, perSession: 3 });
    assert.deepEqual([...new Set(hits.map((hit) => hit.sessionId))], [history.alpha.id]);
    assert.deepEqual([...filesOfSessions(db, many).keys()], [history.alpha.id]);
  } finally {
    db.close();
    t.cleanup();
  }
});
