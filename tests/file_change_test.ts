import assert from "node:assert/strict";
import {
  type EndMarks,
  type FileStamp,
  fileStamp,
  planRead,
  type ReadMark,
} from "../lib/core/file_change.ts";

const STAMP: FileStamp = { size: 10_000, mtimeMs: 1000, ctimeMs: 1000, identity: "1:42" };
const MARK: ReadMark = { ...STAMP, end: 10_000, head: "h", tail: "t" };
const SAME: EndMarks = { head: "h", tail: "t" };

/** A `marksNow` that answers `marks` and counts how often it was asked. */
function marksOf(marks: EndMarks): { ask: (end: number) => EndMarks; asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    ask: (end) => {
      asked.push(end);
      return marks;
    },
  };
}

Deno.test("planRead: an untouched file is reused without a byte read", () => {
  const marks = marksOf(SAME);
  assert.deepEqual(planRead(MARK, STAMP, marks.ask), { kind: "reuse" });
  assert.deepEqual(marks.asked, [], "no hash for an untouched file");
});

Deno.test("planRead: an untouched file whose last line had no newline reads that line again", () => {
  const marks = marksOf(SAME);
  assert.deepEqual(planRead({ ...MARK, end: 9_000 }, STAMP, marks.ask), {
    kind: "append",
    from: 9_000,
  });
  assert.deepEqual(marks.asked, []);
  // An end past the size (the file grew while it was read) at an untouched stamp is not trusted.
  assert.deepEqual(planRead({ ...MARK, end: 11_000 }, STAMP, marks.ask), { kind: "full" });
});

Deno.test("planRead: a grown file whose bytes before the old end hash as they did is read from there", () => {
  const grown = { ...STAMP, size: 12_000, mtimeMs: 2000, ctimeMs: 2000 };
  const marks = marksOf(SAME);
  assert.deepEqual(planRead({ ...MARK, end: 9_500 }, grown, marks.ask), {
    kind: "append",
    from: 9_500,
  });
  assert.deepEqual(marks.asked, [9_500], "the hashes are of the bytes before the old end");
  assert.deepEqual(planRead(MARK, grown, () => ({ head: "other", tail: "t" })), { kind: "full" });
  assert.deepEqual(planRead(MARK, grown, () => ({ head: "h", tail: "other" })), { kind: "full" });
});

Deno.test("planRead: anything else is a full read", () => {
  const never = () => assert.fail("no hash is needed to know");
  const cases: Array<[string, ReadMark | undefined, FileStamp]> = [
    ["never read", undefined, STAMP],
    ["another file (renamed over it)", MARK, { ...STAMP, identity: "1:43" }],
    ["another file, grown", MARK, { ...STAMP, identity: "1:43", size: 20_000 }],
    ["shorter", MARK, { ...STAMP, size: 9_000, mtimeMs: 2000 }],
    ["the same size, rewritten", MARK, { ...STAMP, mtimeMs: 2000 }],
    ["the same size and mtime, changed since", MARK, { ...STAMP, ctimeMs: 2000 }],
  ];
  for (const [what, mark, now] of cases) {
    assert.deepEqual(planRead(mark, now, never), { kind: "full" }, what);
  }
});

Deno.test("fileStamp: an inode where the OS gives one, the creation time where it gives none", () => {
  const info = (ino: number | null) =>
    ({
      size: 5,
      mtime: new Date(1000),
      ctime: null,
      birthtime: new Date(7),
      dev: 9,
      ino,
    }) as unknown as Deno.FileInfo;
  assert.deepEqual(fileStamp(info(42)), {
    size: 5,
    mtimeMs: 1000,
    ctimeMs: 1000,
    identity: "9:42",
  });
  // Windows: Deno gives no inode (null, or 0 on some versions).
  assert.equal(fileStamp(info(null)).identity, "birth:7");
  assert.equal(fileStamp(info(0)).identity, "birth:7");
});
