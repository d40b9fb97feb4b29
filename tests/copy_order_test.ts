import assert from "node:assert/strict";
import { join } from "node:path";
import { compareCopies, newestCopy } from "../lib/transcript/copy_order.ts";

function withFiles(
  contents: Record<string, string | Uint8Array>,
  body: (at: (name: string) => string) => void,
): void {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-copy-order-" });
  try {
    for (const [name, content] of Object.entries(contents)) {
      const path = join(dir, name);
      if (typeof content === "string") Deno.writeTextFileSync(path, content);
      else Deno.writeFileSync(path, content);
    }
    body((name) => join(dir, name));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("compareCopies: same, a prefix either way, or diverged", () => {
  withFiles({ a: "one\ntwo\n", b: "one\ntwo\nthree\n", c: "one\nTWO\n", d: "one\ntwo\n" }, (at) => {
    assert.equal(compareCopies(at("a"), at("d")), "same");
    assert.equal(compareCopies(at("a"), at("b")), "second");
    assert.equal(compareCopies(at("b"), at("a")), "first");
    assert.equal(compareCopies(at("a"), at("c")), "diverged");
    assert.equal(compareCopies(at("b"), at("c")), "diverged");
  });
});

Deno.test("compareCopies reads past its chunk: a difference after the first megabyte is found", () => {
  const big = new Uint8Array(3 * 1024 * 1024 + 17).fill(0x61);
  const changed = big.slice();
  changed[2 * 1024 * 1024 + 5] = 0x62;
  const longer = new Uint8Array(big.length + 1).fill(0x61);
  withFiles({ big, changed, longer }, (at) => {
    assert.equal(compareCopies(at("big"), at("changed")), "diverged");
    assert.equal(compareCopies(at("big"), at("longer")), "second");
  });
});

Deno.test("newestCopy: the copy holding every other, or null when two diverged", () => {
  withFiles({ a: "1\n", b: "1\n2\n", c: "1\n2\n3\n", x: "1\nX\n" }, (at) => {
    assert.equal(newestCopy([at("b"), at("c"), at("a")]), at("c"));
    assert.equal(newestCopy([at("c"), at("a")]), at("c"));
    assert.equal(newestCopy([at("a"), at("b"), at("x")]), null);
    assert.equal(newestCopy([at("a")]), at("a"));
  });
});
