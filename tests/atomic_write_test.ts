import assert from "node:assert/strict";
import { writeFileAtomic } from "../lib/store/atomic_write.ts";

function inTempDir(check: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync();
  try {
    check(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test({
  name: "writeFileAtomic replaces the file by rename, never rewriting it in place",
  ignore: Deno.build.os === "windows",
  fn: () =>
    inTempDir((dir) => {
      const path = `${dir}/target.txt`;
      Deno.writeTextFileSync(path, "old");
      const before = Deno.statSync(path).ino;
      writeFileAtomic(path, "new content");
      assert.equal(Deno.readTextFileSync(path), "new content");
      // A new inode means readers holding the old file never saw a partial write.
      assert.notEqual(Deno.statSync(path).ino, before);
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["target.txt"]);
    }),
});

Deno.test("a failed write leaves the target untouched and no temp file", () =>
  inTempDir((dir) => {
    const path = `${dir}/target.txt`;
    Deno.writeTextFileSync(path, "precious");
    assert.throws(() => writeFileAtomic(path, "new", { tmpSuffix: "/missing/x.tmp" }));
    assert.equal(Deno.readTextFileSync(path), "precious");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["target.txt"]);
  }));

Deno.test("writeFileAtomic writes unicode and large content whole", () =>
  inTempDir((dir) => {
    const path = `${dir}/ünïcødé name ☕.txt`;
    const content = "ä☕😀\n".repeat(300_000);
    writeFileAtomic(path, content);
    assert.equal(Deno.readTextFileSync(path), content);
  }));

Deno.test({
  name: "writeFileAtomic flushes the directory after the rename",
  ignore: Deno.build.os === "windows",
  fn: () =>
    inTempDir((dir) => {
      const path = `${dir}/target.txt`;
      const realDir = Deno.realPathSync(dir);
      const events: string[] = [];
      const { openSync, renameSync } = Deno;
      const syncSync = Deno.FsFile.prototype.syncSync;
      const opened = new WeakMap<Deno.FsFile, string>();
      Deno.openSync = (target, options) => {
        const file = openSync(target, options);
        opened.set(file, String(target));
        return file;
      };
      Deno.renameSync = (from, to) => {
        renameSync(from, to);
        events.push("rename");
      };
      Deno.FsFile.prototype.syncSync = function (this: Deno.FsFile) {
        syncSync.call(this);
        events.push(opened.get(this) === realDir ? "sync dir" : "sync file");
      };
      try {
        writeFileAtomic(path, "content");
      } finally {
        Object.assign(Deno, { openSync, renameSync });
        Deno.FsFile.prototype.syncSync = syncSync;
      }
      assert.deepEqual(events, ["sync file", "rename", "sync dir"]);
      assert.equal(Deno.readTextFileSync(path), "content");
    }),
});

Deno.test("beforeRename saying no leaves the target as it is and no temp file", () =>
  inTempDir((dir) => {
    const path = `${dir}/target.txt`;
    Deno.writeTextFileSync(path, "theirs");
    assert.equal(writeFileAtomic(path, "mine", { beforeRename: () => false }), false);
    assert.equal(Deno.readTextFileSync(path), "theirs");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["target.txt"]);
    assert.equal(writeFileAtomic(path, "mine", { beforeRename: () => true }), true);
    assert.equal(Deno.readTextFileSync(path), "mine");
  }));
