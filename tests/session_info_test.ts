import assert from "node:assert/strict";
import { getSessionInfo } from "../lib/core/session_info.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { sessionId, writeTranscript } from "./helpers/claude_home.ts";

const NOW = new Date(2026, 10, 30, 12);

Deno.test("an existing transcript gives size, date and status ok", () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.cwd();
    const guid = sessionId(1);
    const path = writeTranscript(t.ctx.paths, dir, guid, { mtime: new Date(2026, 2, 13) });
    Deno.writeTextFileSync(path, "x".repeat(2048));
    Deno.utimeSync(path, new Date(2026, 2, 13), new Date(2026, 2, 13));
    const info = getSessionInfo(t.ctx.paths, { guid, dir, desc: "d", tokens: "155000" }, {
      now: NOW,
    });
    assert.equal(info.status, "ok");
    assert.equal(info.size, "2 KB");
    assert.equal(info.sizeBytes, 2048);
    assert.equal(info.dateText, "Mar 13");
    assert.equal(info.tokensText, "155K tok");
  } finally {
    t.cleanup();
  }
});

Deno.test("a missing transcript walks the fallback chain: subagent dir, memory, index", () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.cwd();
    const guid = sessionId(2);
    const folder = projectDirFor(t.ctx.paths, dir);
    const session = { guid, dir, desc: "d", tokens: "42" };
    Deno.mkdirSync(folder, { recursive: true });

    let info = getSessionInfo(t.ctx.paths, session, { now: NOW });
    assert.deepEqual([info.status, info.size, info.dateText, info.tokensText], [
      "missing",
      "(missing)",
      "--",
      "42 tok",
    ]);

    Deno.writeTextFileSync(
      `${folder}/sessions-index.json`,
      JSON.stringify({
        version: 1,
        entries: [{ sessionId: guid, created: "2025-07-04T10:00:00Z" }],
      }),
    );
    info = getSessionInfo(t.ctx.paths, session, { now: NOW });
    assert.equal(info.dateText, "Jul 4, 2025*");
    assert.equal(info.dateIsFallback, true);

    Deno.mkdirSync(`${folder}/memory`);
    Deno.utimeSync(`${folder}/memory`, new Date(2026, 4, 1), new Date(2026, 4, 1));
    assert.equal(getSessionInfo(t.ctx.paths, session, { now: NOW }).dateText, "May 1*");

    Deno.mkdirSync(`${folder}/${guid}`);
    Deno.utimeSync(`${folder}/${guid}`, new Date(2026, 5, 2), new Date(2026, 5, 2));
    assert.equal(getSessionInfo(t.ctx.paths, session, { now: NOW }).dateText, "Jun 2*");
  } finally {
    t.cleanup();
  }
});
