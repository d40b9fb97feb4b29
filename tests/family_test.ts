import assert from "node:assert/strict";
import { familiesOf, type FamilyLink, layOut, uniqueLinks } from "../lib/core/family.ts";
import { appendLineageEvent, lineageLogPath, readLineageEvents } from "../lib/store/lineage_log.ts";
import { type FamilyNode, familyText } from "../lib/app/tree/tree_view.ts";
import { createTestContext } from "./helpers/test_context.ts";

const link = (from: string, to: string, type: FamilyLink["type"] = "fork"): FamilyLink => ({
  from,
  to,
  type,
  recordedBy: "claudecm",
});

Deno.test("families are the linked groups; a pair recorded twice, or a self link, counts once or not at all", () => {
  const links = uniqueLinks([
    link("a", "b"),
    link("a", "b"),
    link("c", "c"),
    link("d", "e"),
    link("b", "f"),
  ]);
  assert.equal(links.length, 3);
  assert.deepEqual(familiesOf(links).map((f) => f.sort()), [["a", "b", "f"], ["d", "e"]]);
});

Deno.test("layOut: roots first, each child under its first parent once, a second parent repeats it", () => {
  const links = [
    link("a", "b"),
    link("a", "c", "refresh"),
    link("c", "d", "trim"),
    link("b", "d", "branch"),
  ];
  const rows = layOut(["a", "b", "c", "d"], links);
  assert.deepEqual(
    rows.map((r) => [r.id, r.depth, r.via ?? "", r.repeated, r.last, r.ancestorsLast]),
    [
      ["a", 0, "", false, true, []],
      ["b", 1, "fork", false, false, []],
      ["d", 2, "branch", false, true, [false]],
      ["c", 1, "refresh", false, true, []],
      ["d", 2, "trim", true, true, [true]],
    ],
  );
  // A cycle has no root: it is still shown, from its first member.
  assert.deepEqual(layOut(["x", "y"], [link("x", "y"), link("y", "x")]).map((r) => r.id), [
    "x",
    "y",
    "x",
  ]);
});

Deno.test("the lineage log: appended events read back in order; a cut line is skipped", () => {
  const t = createTestContext();
  try {
    appendLineageEvent(t.ctx.paths, {
      kind: "fork",
      from: "a",
      to: "b",
      at: "2026-12-01T00:00:00Z",
    });
    Deno.writeTextFileSync(lineageLogPath(t.ctx.paths), '{"kind":"trim","fro', { append: true });
    Deno.writeTextFileSync(lineageLogPath(t.ctx.paths), "\n", { append: true });
    appendLineageEvent(t.ctx.paths, {
      kind: "move",
      from: "a",
      to: "a",
      at: "2026-12-02T00:00:00Z",
      fromDir: "/x",
      toDir: "/y",
    });
    assert.deepEqual(readLineageEvents(t.ctx.paths).map((e) => [e.kind, e.from, e.to, e.toDir]), [
      ["fork", "a", "b", undefined],
      ["move", "a", "a", "/y"],
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("familyText: a session's moves sit above its children, the line down to them unbroken", () => {
  const node = (id: string, moves: FamilyNode["moves"] = []): FamilyNode => ({
    id,
    name: id.toUpperCase(),
    folder: null,
    listNumber: null,
    archived: false,
    transcript: "projects",
    transcriptPath: null,
    moves,
  });
  const move = [{ from: "/old", to: "/new", at: "" }];
  const nodes = new Map(
    [node("a", move), node("b", move), node("c"), node("d", move)].map((n) => [n.id, n]),
  );
  const rows = layOut(["a", "b", "c", "d"], [
    link("a", "b", "refresh"),
    link("b", "c", "refresh"),
    link("a", "d", "refresh"),
  ]);
  const lines = familyText(rows, nodes).map((line) => line.replace(/ {2}\w+ {2}\[.*\]$/, ""));
  assert.deepEqual(lines, [
    "A",
    "│  moved from /old to /new",
    "├─ refreshed into: B",
    "│  │  moved from /old to /new",
    "│  └─ refreshed into: C",
    "└─ refreshed into: D",
    "      moved from /old to /new",
  ]);
});

Deno.test("layOut: a node's children come by kind, then by when recorded, then by id, whatever order the links were read in", () => {
  const links: FamilyLink[] = [
    { ...link("r", "t2", "trim"), at: "2026-02-01T00:00:00Z" },
    link("r", "s", "subagent-fork"),
    { ...link("r", "t1", "trim"), at: "2026-01-01T00:00:00Z" },
    link("r", "c", "continued-in"),
    link("r", "b2", "branch"),
    link("r", "b1", "branch"),
  ];
  const expected = ["r", "b1", "b2", "c", "s", "t1", "t2"];
  assert.deepEqual(
    layOut(["r", "t2", "s", "t1", "c", "b2", "b1"], links).map((r) => r.id),
    expected,
  );
  assert.deepEqual(
    layOut(["r", "t2", "s", "t1", "c", "b2", "b1"], links.toReversed()).map((r) => r.id),
    expected,
  );
});
