import assert from "node:assert/strict";
import { join } from "../lib/core/path.ts";
import { type FileLineage, fileLineage } from "../lib/app/tree/cached_lineage.ts";
import {
  type CachedLineage,
  lineageCachePath,
  readLineageCache,
  writeLineageCache,
} from "../lib/store/lineage_cache.ts";
import { lineageRecords } from "../lib/transcript/lineage.ts";
import { createTestContext, type TestContext } from "./helpers/test_context.ts";

const SELF = "aaaaaaaa-0000-4000-8000-000000000001";
const SOURCE = "bbbbbbbb-0000-4000-8000-000000000002";
const NEXT = "cccccccc-0000-4000-8000-000000000003";
const OTHER = "dddddddd-0000-4000-8000-000000000004";

/** A plain message line, padded so a few of them pass the few KiB the end marks hash. */
function plain(uuid: string, pad = 1500): string {
  return JSON.stringify({
    type: "user",
    uuid,
    sessionId: SELF,
    message: { role: "user", content: `${uuid} ${"x".repeat(pad)}` },
  });
}

/** A line as /branch copies it: stamped with its source and the uuid it had there. */
function branched(source: string, uuid: string | undefined): string {
  return JSON.stringify({
    type: "user",
    uuid: `${uuid}-copy`,
    sessionId: SELF,
    message: { role: "user", content: `copied ${"y".repeat(800)}` },
    forkedFrom: uuid === undefined
      ? { sessionId: source }
      : { sessionId: source, messageUuid: uuid },
  });
}

function continued(next: string): string {
  return JSON.stringify({ type: "continued-in", sessionId: SELF, continuedInSessionId: next });
}

function forkRef(parent: string, agent: string): string {
  return JSON.stringify({
    type: "fork-context-ref",
    agentId: agent,
    parentSessionId: parent,
    parentLastUuid: "p1",
  });
}

const text = (lines: string[]) => lines.map((line) => `${line}\n`).join("");

/** A test's transcript, and its entry kept through the cache file as a real run keeps it. */
interface Scene {
  test: TestContext;
  path: string;
  /** Read the file with the entry the cache holds, keep the new entry, check it against a full read. */
  read: (expected: FileLineage["read"]) => FileLineage;
}

function scene(first: string, fn: (scene: Scene) => void): void {
  const test = createTestContext();
  try {
    const path = join(test.home, `${SELF}.jsonl`);
    Deno.writeTextFileSync(path, first);
    const read = (expected: FileLineage["read"]) => {
      const cached: CachedLineage | undefined = readLineageCache(test.ctx.paths).get(path);
      const now = fileLineage(path, cached)!;
      assert.equal(now.read, expected, "what was read");
      assert.deepEqual(now.records, lineageRecords(path), "the records of a full read");
      assert.ok(writeLineageCache(test.ctx.paths, new Map([[path, now.entry!]])));
      return now;
    };
    read("full");
    fn({ test, path, read });
  } finally {
    test.cleanup();
  }
}

function append(path: string, bytes: string): void {
  Deno.writeTextFileSync(path, bytes, { append: true });
}

Deno.test("cached lineage: an append of plain lines is read from the old end, its lines counted on", () => {
  scene(text([plain("u1"), continued(NEXT), plain("u2"), plain("u3"), plain("u4")]), (s) => {
    s.read("reuse");
    append(s.path, text([plain("u5"), forkRef(OTHER, "a1"), plain("u6"), continued(OTHER)]));
    const now = s.read("append");
    assert.deepEqual(now.records.map((r) => [r.kind, r.line]), [
      ["continued-in", 2],
      ["fork-context-ref", 7],
      ["continued-in", 9],
    ]);
    s.read("reuse");
  });
});

Deno.test("cached lineage: an append that goes on copying a /branch source keeps one record per source", () => {
  scene(text([branched(SOURCE, "m1"), branched(SOURCE, "m2"), plain("u1")]), (s) => {
    append(
      s.path,
      text([
        branched(SOURCE, "m3"),
        branched(OTHER, "o1"),
        plain("u2"),
        branched(SOURCE, "m4"),
        // The last copied line of a source may carry no uuid: the record then holds none.
        branched(OTHER, undefined),
      ]),
    );
    const now = s.read("append");
    assert.deepEqual(now.records, [
      { kind: "forked-from", sessionId: SOURCE, messageUuid: "m4", line: 1 },
      { kind: "forked-from", sessionId: OTHER, line: 5 },
    ]);
    s.read("reuse");
  });
});

Deno.test("cached lineage: a file cut short and written again, grown past its old size with the same first KiB, is read in full", () => {
  const head = [plain("u1"), plain("u2"), plain("u3")];
  scene(text([...head, plain("u4"), continued(NEXT), plain("u5"), plain("u6")]), (s) => {
    // The same file (its inode kept), the same first lines, then other ones near the old end.
    Deno.truncateSync(s.path, 0);
    append(s.path, text([...head, plain("v4"), plain("v5"), continued(OTHER), plain("v6", 4000)]));
    const now = s.read("full");
    assert.deepEqual(now.records.map((r) => r.sessionId), [OTHER]);
    s.read("reuse");
  });
});

Deno.test("cached lineage: a file rewritten at the same size is read in full", () => {
  const lines = (next: string) => text([plain("u1"), plain("u2"), continued(next), plain("u3")]);
  scene(lines(NEXT), (s) => {
    const before = Deno.statSync(s.path);
    Deno.writeTextFileSync(s.path, lines(OTHER));
    assert.equal(Deno.statSync(s.path).size, before.size);
    // A rewrite in the same millisecond would keep the mtime: this one is a moment later.
    Deno.utimeSync(s.path, new Date(), new Date(before.mtime!.getTime() + 5000));
    const now = s.read("full");
    assert.deepEqual(now.records.map((r) => r.sessionId), [OTHER]);
  });
});

Deno.test("cached lineage: a last line cut without its newline is read again whole once it is complete", () => {
  const cut = branched(OTHER, "o2");
  const cutAt = cut.indexOf('"messageUuid"') + 3;
  scene(text([plain("u1"), branched(SOURCE, "m1")]) + cut.slice(0, cutAt), (s) => {
    // Still no newline: the part line is read again, the entry kept as it was.
    const partial = s.read("append");
    append(s.path, cut.slice(cutAt, cutAt + 5));
    const longer = s.read("append");
    assert.deepEqual(longer.entry, { ...partial.entry!, ...stampOf(s.path) });
    append(s.path, `${cut.slice(cutAt + 5)}\n${branched(SOURCE, "m2")}\n${continued(NEXT)}`);
    const now = s.read("append");
    assert.deepEqual(now.records.map((r) => [r.kind, r.sessionId, r.messageUuid, r.line]), [
      ["forked-from", SOURCE, "m2", 2],
      ["forked-from", OTHER, "o2", 3],
      ["continued-in", NEXT, undefined, 5],
    ]);
    s.read("append");
    append(s.path, "\n");
    s.read("append");
    s.read("reuse");
  });
});

function stampOf(path: string): Pick<CachedLineage, "size" | "mtimeMs" | "ctimeMs"> {
  const info = Deno.statSync(path);
  return {
    size: info.size,
    mtimeMs: info.mtime!.getTime(),
    ctimeMs: info.ctime?.getTime() ?? info.mtime!.getTime(),
  };
}

Deno.test("lineage cache: a damaged file, or a damaged entry, counts as nothing cached", () => {
  scene(text([plain("u1"), continued(NEXT)]), (s) => {
    const file = lineageCachePath(s.test.ctx.paths);
    const good = Deno.readTextFileSync(file);
    for (const damaged of ["", "{", "null", "[]", good.slice(0, good.length / 2), "\u0000\u00ff"]) {
      Deno.writeTextFileSync(file, damaged);
      assert.equal(readLineageCache(s.test.ctx.paths).size, 0, JSON.stringify(damaged));
      s.read("full");
    }
    const value = JSON.parse(good);
    const entry = value.files[s.path];
    const other = join(s.test.home, `${NEXT}.jsonl`);
    const kept = (changes: Record<string, unknown>) =>
      JSON.stringify({ ...value, files: { [s.path]: { ...entry, ...changes }, [other]: entry } });
    for (
      const bad of [
        { records: [{ kind: "forked-from", sessionId: "not-an-id", line: 1 }] },
        { records: [{ kind: "moved", sessionId: NEXT, line: 1 }] },
        { records: "none" },
        { end: -1 },
        { lines: 1e9 },
        { head: 7 },
      ]
    ) {
      Deno.writeTextFileSync(file, kept(bad));
      const cache = readLineageCache(s.test.ctx.paths);
      assert.deepEqual([...cache.keys()], [other], JSON.stringify(bad));
    }
    // Written by another version, or by a reader that yields other records: nothing is reused.
    Deno.writeTextFileSync(file, JSON.stringify({ ...value, reader: "0.0.0 0" }));
    assert.equal(readLineageCache(s.test.ctx.paths).size, 0);
    // A folder where the cache goes: nothing read, nothing written, no error.
    Deno.removeSync(file);
    Deno.mkdirSync(file);
    assert.equal(readLineageCache(s.test.ctx.paths).size, 0);
    assert.equal(writeLineageCache(s.test.ctx.paths, new Map()), false);
  });
});
