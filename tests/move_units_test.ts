import assert from "node:assert/strict";
import {
  movedEntryKey,
  projectEntries,
  renameProjectEntries,
} from "../lib/core/claude_json_projects.ts";
import { relocateUnder } from "../lib/core/folder_match.ts";
import { mainSessions, parseRegistry, serializeRegistry } from "../lib/core/registry.ts";
import { rewriteDirPrefix } from "../lib/core/registry_ops.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { join } from "../lib/core/path.ts";
import { mergeConflict, MergeConflictError, mergeMove } from "../lib/store/merge_move.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

Deno.test("relocateUnder: OLD and below map to NEW; a folder that only shares a prefix does not", () => {
  const move = { from: "/w/app", to: "/x/renamed/" };
  assert.equal(relocateUnder("/w/app", move, "linux"), "/x/renamed");
  assert.equal(relocateUnder("/w/app/", move, "linux"), "/x/renamed");
  assert.equal(relocateUnder("/w/app/api/v1", move, "linux"), "/x/renamed/api/v1");
  assert.equal(relocateUnder("/w/app-web", move, "linux"), undefined);
  assert.equal(relocateUnder("/w/ap", move, "linux"), undefined);
  assert.equal(
    relocateUnder("C:/W/App/Sub", { from: "c:\\w\\app", to: "D:\\n" }, "windows"),
    "D:\\n\\Sub",
  );
});

Deno.test("rewriteDirPrefix: rows under OLD, main and archived, change; other lines stay byte for byte", () => {
  const text = "\uFEFFa0000000-0000-4000-8000-000000000001|/w/app|One|5\r\n" +
    "free text\n\n" +
    "a0000000-0000-4000-8000-000000000002|/w/app-web|Two|\n" +
    "[archived]  \n" +
    "a0000000-0000-4000-8000-000000000003|/w/app/sub|Three|\n";
  const moved = rewriteDirPrefix(parseRegistry(text), { from: "/w/app", to: "/n", os: "linux" });
  assert.equal(
    serializeRegistry(moved),
    text.replace("|/w/app|", "|/n|").replace("|/w/app/sub|", "|/n/sub|"),
  );
  assert.deepEqual(mainSessions(moved).map((s) => s.dir), ["/n", "/w/app-web"]);
});

Deno.test("projects entries of .claude.json are renamed in place, the rest byte for byte", () => {
  const text = '\uFEFF{ "a": [1, {"projects": {"/w/app": 1}}], "projects" :{\n' +
    '  "/w/app": {"x": "}\\"{", "n": [1,2]},\t"/w/app\\/sub": {},\n  "/w/other": null }, "z": true}';
  const bytes = encoder.encode(text);
  assert.deepEqual(projectEntries(bytes).map((e) => e.key), ["/w/app", "/w/app/sub", "/w/other"]);
  const renamed = renameProjectEntries(bytes, [
    { from: "/w/app", to: "/n" },
    { from: "/w/app/sub", to: "/n/sub" },
  ]);
  assert.equal(
    decoder.decode(renamed),
    text.replace('"/w/app": {"x"', '"/n": {"x"').replace('"/w/app\\/sub"', '"/n/sub"'),
  );
  assert.deepEqual(projectEntries(encoder.encode("not json")), []);
});

Deno.test("a moved .claude.json key keeps the separators Claude Code wrote it with", () => {
  const move = { from: "C:\\w\\app", to: "D:\\n" };
  assert.equal(movedEntryKey("C:/w/app/sub", move, "windows"), "D:/n/sub");
  assert.equal(movedEntryKey("C:\\w\\app\\sub", move, "windows"), "D:\\n\\sub");
  assert.equal(movedEntryKey("/w/app/sub", { from: "/w/app", to: "/n" }, "linux"), "/n/sub");
  assert.equal(movedEntryKey("/w/app-web", { from: "/w/app", to: "/n" }, "linux"), undefined);
});

Deno.test("mergeMove: a folder merges into an existing one; an identical file is replaced, a differing one stops it", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-merge-" });
  try {
    const from = `${dir}/from`;
    const to = `${dir}/to`;
    Deno.mkdirSync(`${from}/sub`, { recursive: true });
    Deno.mkdirSync(`${to}/sub`, { recursive: true });
    Deno.writeTextFileSync(join(from, "same"), "x");
    Deno.writeTextFileSync(join(to, "same"), "x");
    Deno.writeTextFileSync(`${from}/sub/new`, "n");
    assert.equal(mergeConflict(from, to), null);
    mergeMove(from, to);
    assert.equal(Deno.readTextFileSync(`${to}/sub/new`), "n");
    assert.ok(!pathExists(from), "the emptied source folder is gone");
    Deno.mkdirSync(from);
    Deno.writeTextFileSync(join(from, "same"), "y");
    assert.deepEqual(mergeConflict(from, to), [join(from, "same"), join(to, "same")]);
    assert.throws(() => mergeMove(from, to), MergeConflictError);
    assert.equal(Deno.readTextFileSync(join(to, "same")), "x", "the target is untouched");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("mergeMove: a source another run moved away meanwhile has nothing to move", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-merge-" });
  try {
    Deno.writeTextFileSync(join(dir, "moved"), "x");
    mergeMove(join(dir, "gone"), join(dir, "moved"));
    mergeMove(join(dir, "gone"), join(dir, "never"));
    assert.equal(Deno.readTextFileSync(join(dir, "moved")), "x", "the target is untouched");
    assert.ok(!pathExists(join(dir, "never")), "nothing made");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
