import assert from "node:assert/strict";
import { copySync } from "../lib/store/copy.ts";

Deno.test("copySync copies a tree with its modification times", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${dir}/src/sub`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/src/a.jsonl`, "one\n");
    Deno.writeTextFileSync(`${dir}/src/sub/b.txt`, "two\n");
    const old = new Date("2026-01-02T03:04:05Z");
    Deno.utimeSync(`${dir}/src/a.jsonl`, old, old);
    copySync(`${dir}/src`, `${dir}/dst`);
    assert.equal(Deno.readTextFileSync(`${dir}/dst/a.jsonl`), "one\n");
    assert.equal(Deno.readTextFileSync(`${dir}/dst/sub/b.txt`), "two\n");
    assert.equal(Deno.statSync(`${dir}/dst/a.jsonl`).mtime?.getTime(), old.getTime());
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["dst", "src"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "a copy that fails halfway leaves nothing at the target, so a retry copies again",
  ignore: Deno.build.os === "windows",
  fn: () => {
    const dir = Deno.makeTempDirSync();
    Deno.mkdirSync(`${dir}/src`);
    // A socket cannot be copied as a file (ENXIO), whoever runs the test, root included.
    const listener = Deno.listen({ transport: "unix", path: `${dir}/src/zz.sock` });
    try {
      Deno.writeTextFileSync(`${dir}/src/a.jsonl`, "one\n");
      assert.throws(() => copySync(`${dir}/src`, `${dir}/dst`));
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["src"], "no half copy");
      Deno.removeSync(`${dir}/src/zz.sock`);
      copySync(`${dir}/src`, `${dir}/dst`);
      assert.equal(Deno.readTextFileSync(`${dir}/dst/a.jsonl`), "one\n");
    } finally {
      listener.close();
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
