import assert from "node:assert/strict";
import { folderText, logicalCwd, sameFolder } from "../lib/core/folder_match.ts";

Deno.test("folderText: trailing separators go (a root keeps its own); case only where the OS ignores it", () => {
  assert.equal(folderText("/home/a/Proj//", "linux"), "/home/a/Proj");
  assert.equal(folderText("/", "linux"), "/");
  assert.equal(folderText("///", "linux"), "/");
  assert.equal(
    folderText("/home/a/back\\", "linux"),
    "/home/a/back\\",
    "a POSIX name may end in \\",
  );
  assert.equal(folderText("C:/Users/A/Proj/", "windows"), "c:\\users\\a\\proj");
  assert.equal(folderText("C:\\", "windows"), "c:\\");
  assert.equal(folderText("C:/", "windows"), "c:\\");
  assert.equal(folderText("/Users/A/Proj/", "darwin"), "/users/a/proj");
  assert.equal(
    folderText("/Users/a/Cafe\u0301", "darwin"),
    folderText("/Users/a/Caf\u00e9", "darwin"),
    "macOS: one Unicode form",
  );
  assert.notEqual(folderText("/home/a/Proj", "linux"), folderText("/home/a/proj", "linux"));
});

Deno.test("sameFolder follows symlinks and compares folders that are gone as written", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "claudecm-folder-" }));
  try {
    Deno.mkdirSync(`${dir}/real`);
    const os = Deno.build.os;
    assert.ok(sameFolder(`${dir}/real`, `${dir}/real/`, os));
    assert.ok(sameFolder(`${dir}/gone/`, `${dir}/gone`, os));
    assert.ok(!sameFolder(`${dir}/real`, `${dir}/gone`, os));
    if (os !== "windows") {
      Deno.symlinkSync(`${dir}/real`, `${dir}/link`);
      assert.ok(sameFolder(`${dir}/link`, `${dir}/real`, os));
      assert.ok(sameFolder(`${dir}/real`, `${dir}/link/`, os));
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "logicalCwd takes PWD only when it names the cwd",
  ignore: Deno.build.os === "windows",
  fn: () => {
    const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "claudecm-pwd-" }));
    try {
      Deno.mkdirSync(`${dir}/real`);
      Deno.symlinkSync(`${dir}/real`, `${dir}/link`);
      const os = Deno.build.os;
      assert.equal(logicalCwd(`${dir}/real`, `${dir}/link`, os), `${dir}/link`);
      assert.equal(logicalCwd(`${dir}/real`, dir, os), `${dir}/real`, "another folder");
      assert.equal(logicalCwd(`${dir}/real`, "link", os), `${dir}/real`, "not absolute");
      assert.equal(logicalCwd(`${dir}/real`, undefined, os), `${dir}/real`);
      assert.equal(logicalCwd(`${dir}/real`, "", os), `${dir}/real`);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
