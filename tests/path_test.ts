import assert from "node:assert/strict";
import * as nodePath from "node:path";
import * as ours from "../lib/core/path.ts";

// lib/core/path.ts replaces node:path (whose import costs start-up time), so
// each of its functions must answer as node:path's does, flavour by flavour,
// quirks included. Every case below runs through both and the differences
// are listed together.

const FLAVOURS = ["posix", "win32"] as const;

const LONG = `/home/user/${"very long folder name ".repeat(6).trim()}/${"x".repeat(90)}/file.jsonl`;

/** Paths that probe each rule: roots, drives, UNC, dots, separators, names. */
const ATOMS = [
  "",
  ".",
  "..",
  "...",
  "/",
  "\\",
  "//",
  "\\\\",
  "///",
  "a",
  "a/",
  "a/b",
  "a\\b",
  "a//b",
  "a\\\\b/",
  "/a/b/",
  "/a/b//",
  "./a",
  "../a",
  "a/..",
  "a/../..",
  "../../a/./b",
  "/..",
  "/../a",
  "/a",
  "/ab",
  "\\a",
  "\\ab",
  "\\abc",
  "/abc",
  "//a",
  "//a/b",
  "C:",
  "C:\\",
  "C:/",
  "c:foo",
  "c:foo\\..\\..",
  "C:\\foo\\..\\bar",
  "C:\\A\\b",
  "c:\\a\\B\\",
  "D:\\a\\b\\",
  "C:\\x\\y\\z",
  "1:\\x",
  "\\\\server\\share\\x",
  "\\\\server\\share",
  "\\\\server\\share\\",
  "//server/share/x",
  "\\\\server",
  "\\\\server\\",
  "\\\\\\server\\share",
  "\\\\.\\pipe\\x",
  "\\\\?\\C:\\x\\..\\y",
  "\\\\.\\CON:x",
  "file.txt",
  ".bashrc",
  "a.b.c",
  "a.",
  "..b",
  "dir/.hidden",
  "dir/x.tar.gz",
  "dir/x.jsonl/",
  "C:x.txt",
  "ünïcødé/日本語.md",
  "ÄÖ/Straße/İ",
  '/tmp/with space/it\'s "quoted".jsonl',
  "CON",
  "CONx",
  "CON:",
  "com1:x",
  "LPT¹:y",
  "COM¹:z",
  "aux²:",
  "NUL.txt",
  "a:b",
  "foo/bar:",
  "foo:/bar",
  "foo\\COM1:bar",
  LONG,
  LONG.replaceAll("/", "\\"),
  `C:${LONG.replaceAll("/", "\\")}`,
];

/** A small set for combinations of two and three. */
const FEW = [
  "",
  ".",
  "..",
  "/",
  "\\",
  "a",
  "a/b",
  "../c",
  "C:",
  "C:\\x",
  "c:y",
  "\\\\s\\sh",
  "x.md",
];

const SUFFIXES = [
  "",
  ".txt",
  ".jsonl",
  ".md",
  "b",
  "a/b",
  "x",
  "bbb",
  "/",
  ".",
  "file.txt",
  "日本語.md",
];

/** Paths built from random pieces (a fixed seed, so a failure repeats). */
function randomPaths(count: number): string[] {
  const pieces = ["a", "b.c", "..", ".", "", "/", "\\", "//", "C:", "x:", "日本", " ", "'", '"'];
  pieces.push("CON", ":", ".d", "UNC", "?", "é");
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  return Array.from({ length: count }, () => {
    const length = next() % 8;
    return Array.from({ length }, () => pieces[next() % pieces.length]).join("");
  });
}

const SINGLES = [...ATOMS, ...randomPaths(400)];

type Call = [name: string, args: string[]];

function calls(): Call[] {
  const list: Call[] = [];
  for (const path of SINGLES) {
    for (const name of ["normalize", "isAbsolute", "dirname", "basename", "extname", "resolve"]) {
      list.push([name, [path]]);
    }
    list.push(["join", [path]]);
  }
  for (const path of ATOMS) {
    for (const suffix of [...SUFFIXES, nodePath.posix.basename(path)]) {
      list.push(["basename", [path, suffix]]);
    }
  }
  for (const first of ATOMS) {
    for (const second of ATOMS) {
      list.push(["join", [first, second]], ["resolve", [first, second]]);
      list.push(["relative", [first, second]]);
    }
  }
  for (const first of FEW) {
    for (const second of FEW) {
      for (const third of FEW) list.push(["join", [first, second, third]]);
      list.push(["resolve", [first, second, "d"]], ["resolve", []]);
    }
  }
  const random = randomPaths(300);
  for (let i = 0; i + 1 < random.length; i++) {
    list.push(["relative", [random[i], random[i + 1]]], ["join", [random[i], random[i + 1]]]);
  }
  return list;
}

function differences(flavour: (typeof FLAVOURS)[number]): string[] {
  const expected = nodePath[flavour] as unknown as Record<string, (...args: string[]) => unknown>;
  const actual = ours[flavour] as unknown as Record<string, (...args: string[]) => unknown>;
  const found: string[] = [];
  for (const [name, args] of calls()) {
    const want = expected[name](...args);
    const got = actual[name](...args);
    if (got !== want) {
      found.push(
        `${flavour}.${name}(${args.map((a) => JSON.stringify(a)).join(", ")}): ` +
          `${JSON.stringify(got)}, node:path ${JSON.stringify(want)}`,
      );
    }
  }
  return found;
}

Deno.test("the case table is large and covers every function", () => {
  const list = calls();
  assert.ok(list.length > 10_000, `${list.length} cases`);
  const names = new Set(list.map(([name]) => name));
  assert.deepEqual([...names].sort(), [
    "basename",
    "dirname",
    "extname",
    "isAbsolute",
    "join",
    "normalize",
    "relative",
    "resolve",
  ]);
});

for (const flavour of FLAVOURS) {
  Deno.test(`${flavour} answers as node:path's ${flavour} in every case`, () => {
    assert.deepEqual(differences(flavour).slice(0, 40), []);
  });

  Deno.test(`${flavour}.sep is node:path's`, () => {
    assert.equal(ours[flavour].sep, nodePath[flavour].sep);
  });
}

Deno.test("the bare functions are this OS's flavour, as node:path's are", () => {
  const probe = ["a\\b/c", "C:\\x/../y", "/tmp//z/"];
  for (const path of probe) {
    assert.equal(ours.join(path, ".."), nodePath.join(path, ".."));
    assert.equal(ours.resolve(path), nodePath.resolve(path));
    assert.equal(ours.normalize(path), nodePath.normalize(path));
    assert.equal(ours.dirname(path), nodePath.dirname(path));
    assert.equal(ours.basename(path), nodePath.basename(path));
    assert.equal(ours.extname(path), nodePath.extname(path));
    assert.equal(ours.isAbsolute(path), nodePath.isAbsolute(path));
    assert.equal(ours.relative(path, "/q"), nodePath.relative(path, "/q"));
  }
  assert.equal(ours.sep, nodePath.sep);
});

Deno.test("resolve follows the current directory", () => {
  const before = Deno.cwd();
  const dir = Deno.makeTempDirSync({ prefix: "claudecm path ünï " });
  try {
    Deno.chdir(dir);
    for (const flavour of FLAVOURS) {
      for (const args of [[], ["."], [""], ["x"], ["c:x"], ["..", "y"]]) {
        assert.equal(ours[flavour].resolve(...args), nodePath[flavour].resolve(...args));
      }
    }
  } finally {
    Deno.chdir(before);
    Deno.removeSync(dir, { recursive: true });
  }
});
