import assert from "node:assert/strict";
import { orphanRows } from "../lib/core/orphans.ts";
import type { Session } from "../lib/core/registry.ts";

const at = (day: number) => new Date(2026, 0, day);
const file = (guid: string, day: number) => ({ guid, mtime: at(day), sizeBytes: 100 * day });
const session = (guid: string, dir: string): Session => ({ guid, dir, desc: guid, tokens: "" });
const options = { dir: "/w/app", sameFolder: (a: string, b: string) => a === b };

Deno.test("a tidy folder gives no rows: one file, or every file registered to this folder", () => {
  assert.equal(orphanRows([], [], options), null);
  assert.equal(orphanRows([file("a", 1)], [], options), null, "one file, even unregistered");
  assert.equal(
    orphanRows(
      [file("a", 1), file("b", 2)],
      [session("a", "/w/app"), session("b", "/w/app")],
      options,
    ),
    null,
  );
});

Deno.test("an orphan or a wrong directory shows every file, newest first", () => {
  const rows = orphanRows(
    [file("a", 1), file("b", 3), file("c", 2)],
    [session("a", "/w/app"), session("c", "/w/app")],
    options,
  );
  assert.deepEqual(rows?.map((r) => [r.guid, r.session?.guid ?? null, r.wrongDirectory]), [
    ["b", null, false],
    ["c", "c", false],
    ["a", "a", false],
  ]);
  const wrong = orphanRows(
    [file("a", 1), file("b", 2)],
    [session("a", "/w/app"), session("b", "/w/a-p-p")],
    options,
  );
  assert.deepEqual(wrong?.map((r) => r.wrongDirectory), [true, false]);
});

Deno.test("folders are compared by the matcher given, so a symlinked spelling is not 'wrong'", () => {
  const rows = orphanRows(
    [file("a", 1), file("b", 2)],
    [session("a", "/w/app"), session("b", "/link/app")],
    { dir: "/w/app", sameFolder: () => true },
  );
  assert.equal(rows, null);
});

Deno.test("files of the same millisecond keep one order, whatever order the folder listed them in", () => {
  const listings = [[file("b", 1), file("a", 1), file("c", 2)], [
    file("a", 1),
    file("c", 2),
    file("b", 1),
  ]];
  for (const listing of listings) {
    const rows = orphanRows(listing, [session("a", "/w/app")], options);
    assert.deepEqual(rows?.map((r) => r.guid), ["c", "a", "b"]);
  }
});
