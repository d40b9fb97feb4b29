import assert from "node:assert/strict";
import { join } from "node:path";
import { hashFilePrefix } from "../lib/transcript/prefix_hash.ts";

Deno.test("a prefix hash carried on over appended bytes equals one computed afresh", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "t.jsonl");
    const bytes = new Uint8Array(3_000_003).map((_, i) => (i * 7919) % 251);
    Deno.writeFileSync(path, bytes);
    for (const [first, second] of [[0, 5], [1_048_577, 3_000_003], [13, 2_097_152]]) {
      const head = hashFilePrefix(path, first);
      assert.equal(head.length, first);
      assert.equal(
        hashFilePrefix(path, second, head.state).digest,
        hashFilePrefix(path, second).digest,
      );
    }
    const before = hashFilePrefix(path, 2_000_001).digest;
    // Every byte of a 16-byte block goes to one of four lanes, and the last byte is in the tail.
    for (
      const at of [1_234_560, 1_234_561, 1_234_566, 1_234_567, 1_234_571, 1_234_575, 2_000_000]
    ) {
      flipBit(path, at, bytes[at]);
      assert.notEqual(hashFilePrefix(path, 2_000_001).digest, before, `a changed bit at ${at}`);
      flipBit(path, at, bytes[at] ^ 1);
      assert.equal(hashFilePrefix(path, 2_000_001).digest, before);
    }
    assert.equal(hashFilePrefix(path, 5_000_000).length, 3_000_003, "a short file says so");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** Write `byte` with its lowest bit flipped at `at` in the file at `path`. */
function flipBit(path: string, at: number, byte: number): void {
  const file = Deno.openSync(path, { write: true });
  try {
    file.seekSync(at, Deno.SeekMode.Start);
    file.writeSync(new Uint8Array([byte ^ 1]));
  } finally {
    file.close();
  }
}
