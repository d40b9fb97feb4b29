import assert from "node:assert/strict";
import { join } from "node:path";
import { claimAndSearch, filesHolding } from "../lib/app/find/scan_prefilter.ts";
import type { TranscriptOnDisk } from "../lib/transcript/all_transcripts.ts";
import { byteSearch } from "../lib/transcript/raw_match.ts";

Deno.test("the scan's first step finds the same files on two threads as on one, in their order", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const files: TranscriptOnDisk[] = [];
    for (let i = 0; i < 12; i++) {
      const path = join(dir, `${i}.jsonl`);
      const text = `{"n":${i},"text":"${"filler ".repeat(1000 * (i + 1))}${
        i % 3 === 0 ? "the Zyqnorthal" : ""
      }${i % 4 === 0 ? " and the return" : ""}"}\n`;
      if (i !== 5) Deno.writeTextFileSync(path, text); // 5 is gone before it is searched.
      files.push({
        path,
        size: text.length,
        sessionId: undefined,
        projectDir: dir,
        subagent: false,
        mtimeMs: 0,
        ctimeMs: 0,
        identity: "",
      });
    }
    for (const word of ["zyqnorthal", "return"]) {
      const one = await filesHolding(files, byteSearch(word), { workerBytes: Infinity });
      const two = await filesHolding(files, byteSearch(word), { workerBytes: 0 });
      const expected = files.filter((_, i) => word === "zyqnorthal" ? i % 3 === 0 : i % 4 === 0);
      assert.deepEqual(one.map((file) => file.path), expected.map((file) => file.path), word);
      assert.deepEqual(two.map((file) => file.path), expected.map((file) => file.path), word);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the threads of a scan share one counter: each path is searched by one of them, once", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const paths = [0, 1, 2, 3, 4].map((i) => {
      const path = join(dir, `${i}.jsonl`);
      Deno.writeTextFileSync(path, i % 2 === 0 ? "the word zyqnorthal\n" : "nothing here\n");
      return path;
    });
    const next = new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(next, 0, 1); // Another thread took paths[0] already.
    const search = byteSearch("zyqnorthal");
    assert.deepEqual(claimAndSearch(paths, next, search, undefined), [paths[2], paths[4]]);
    assert.ok(Atomics.load(next, 0) >= paths.length);
    assert.deepEqual(claimAndSearch(paths, next, search, undefined), [], "nothing left to take");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
