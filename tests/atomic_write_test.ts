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
