import assert from "node:assert/strict";
import { join } from "../lib/core/path.ts";
import {
  continuedIn,
  lineageRecords,
  parentSessionIds,
  sessionLineageRecords,
} from "../lib/transcript/lineage.ts";

const SELF = "aaaaaaaa-0000-4000-8000-000000000001";
const SOURCE = "bbbbbbbb-0000-4000-8000-000000000002";
const NEXT = "cccccccc-0000-4000-8000-000000000003";

function write(path: string, lines: unknown[]): string {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  Deno.writeTextFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

function withDir(fn: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync();
  try {
    fn(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** A line as /branch copies it (2.1.332): the source's line, re-stamped. */
function branched(uuid: string, extra: Record<string, unknown> = {}): unknown {
  return {
    parentUuid: null,
    isSidechain: false,
    type: "user",
    message: { role: "user", content: "hi" },
    uuid,
    sessionId: SELF,
    ...extra,
    forkedFrom: { sessionId: SOURCE, messageUuid: uuid },
  };
}

Deno.test("lineageRecords: a /branch copy is one forked-from record at its last copied message", () => {
  withDir((dir) => {
    const path = write(join(dir, `${SELF}.jsonl`), [
      { type: "custom-title", customTitle: "x", sessionId: SELF },
      branched("u1"),
      branched("u2", { type: "assistant" }),
      { type: "user", uuid: "u3", sessionId: SELF, message: { role: "user", content: "new" } },
    ]);
    assert.deepEqual(lineageRecords(path), [
      { kind: "forked-from", sessionId: SOURCE, messageUuid: "u2", line: 2 },
    ]);
  });
});

Deno.test("lineageRecords: continued-in and fork-context-ref lines, in file order", () => {
  withDir((dir) => {
    const path = write(join(dir, `${SELF}.jsonl`), [
      {
        type: "fork-context-ref",
        agentId: "a1",
        parentSessionId: SOURCE,
        parentLastUuid: "p9",
        contextLength: 4,
      },
      {
        type: "continued-in",
        timestamp: "2026-12-07T00:00:00.000Z",
        sessionId: SELF,
        continuedInSessionId: NEXT,
      },
    ]);
    const records = lineageRecords(path);
    assert.deepEqual(records, [
      { kind: "fork-context-ref", sessionId: SOURCE, messageUuid: "p9", agentId: "a1", line: 1 },
      { kind: "continued-in", sessionId: NEXT, line: 2 },
    ]);
    assert.deepEqual(parentSessionIds(records, SELF), [SOURCE]);
    assert.equal(continuedIn(records), NEXT);
  });
});

Deno.test("lineageRecords: the words in a message's text are not records", () => {
  withDir((dir) => {
    const text = `"forkedFrom" {"type":"continued-in","continuedInSessionId":"${NEXT}"}`;
    const path = write(join(dir, `${SELF}.jsonl`), [
      { type: "user", uuid: "u1", message: { role: "user", content: text } },
      { type: "user", uuid: "u2", message: { forkedFrom: { sessionId: SOURCE } } },
      { type: "continued-in", continuedInSessionId: "not-a-session" },
    ]);
    assert.deepEqual(lineageRecords(path), []);
  });
});

Deno.test("sessionLineageRecords: the subagents' fork-context-ref pointers count too", () => {
  withDir((dir) => {
    const path = write(join(dir, `${SELF}.jsonl`), [branched("u1")]);
    write(join(dir, SELF, "subagents", "agent-a1.jsonl"), [
      { type: "fork-context-ref", agentId: "a1", parentSessionId: NEXT, parentLastUuid: "u1" },
    ]);
    const records = sessionLineageRecords(path);
    assert.deepEqual(records.map((r) => [r.kind, r.sessionId]), [
      ["forked-from", SOURCE],
      ["fork-context-ref", NEXT],
    ]);
    assert.deepEqual(parentSessionIds(records, SELF), [SOURCE, NEXT]);
  });
});

Deno.test("lineageRecords: an unreadable transcript throws", () => {
  withDir((dir) => {
    assert.throws(() => lineageRecords(join(dir, "gone.jsonl")), Deno.errors.NotFound);
  });
});
