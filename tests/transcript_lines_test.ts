import assert from "node:assert/strict";
import { scanLines } from "../lib/transcript/lines.ts";

function withFile(bytes: Uint8Array | string, body: (path: string) => void): void {
  const path = Deno.makeTempFileSync({ prefix: "claudecm-lines-" });
  try {
    Deno.writeFileSync(path, typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
    body(path);
  } finally {
    Deno.removeSync(path);
  }
}

interface Seen {
  number: number;
  text: string;
  length: number;
  unterminated: boolean;
  oversized: boolean;
}

function collect(path: string, options = {}): Seen[] {
  const seen: Seen[] = [];
  scanLines(path, (line) => {
    seen.push({
      number: line.number,
      text: new TextDecoder().decode(line.bytes),
      length: line.length,
      unterminated: line.unterminated,
      oversized: line.oversized,
    });
  }, options);
  return seen;
}

Deno.test("scanLines splits LF and CRLF lines and numbers them", () => {
  withFile("a\r\nbb\n\nccc\n", (path) => {
    const seen = collect(path);
    assert.deepEqual(seen.map((s) => [s.number, s.text]), [[1, "a"], [2, "bb"], [3, ""], [
      4,
      "ccc",
    ]]);
    assert.ok(seen.every((s) => !s.unterminated));
  });
});

Deno.test("scanLines joins lines that span read chunks", () => {
  const lines = Array.from({ length: 50 }, (_, i) => "x".repeat(i * 7));
  withFile(lines.join("\n") + "\n", (path) => {
    assert.deepEqual(collect(path, { chunkSize: 16 }).map((s) => s.text), lines);
  });
});

Deno.test("scanLines reports a final line without newline as unterminated", () => {
  withFile('{"a":1}\n{"b":', (path) => {
    const seen = collect(path, { chunkSize: 4 });
    assert.equal(seen.length, 2);
    assert.equal(seen[1].text, '{"b":');
    assert.equal(seen[1].unterminated, true);
  });
});

Deno.test("scanLines keeps a several-MB line whole", () => {
  const big = "y".repeat(5 * 1024 * 1024);
  withFile(`short\n${big}\nafter\n`, (path) => {
    const seen = collect(path, { chunkSize: 64 * 1024 });
    assert.equal(seen.length, 3);
    assert.equal(seen[1].text.length, big.length);
    assert.equal(seen[1].oversized, false);
    assert.equal(seen[2].text, "after");
  });
});

Deno.test("scanLines cuts a line over the limit to a prefix and goes on", () => {
  withFile(`${"z".repeat(10_000)}\nnext\n`, (path) => {
    const seen = collect(path, { chunkSize: 256, maxLineBytes: 1_000, oversizedPrefix: 100 });
    assert.equal(seen[0].oversized, true);
    assert.equal(seen[0].text.length, 100);
    assert.equal(seen[0].length, 10_000);
    assert.deepEqual([seen[1].text, seen[1].oversized], ["next", false]);
  });
});

Deno.test("scanLines stops when the visitor returns false", () => {
  withFile("1\n2\n3\n", (path) => {
    const seen: string[] = [];
    scanLines(path, (line) => {
      seen.push(new TextDecoder().decode(line.bytes));
      return seen.length < 2;
    });
    assert.deepEqual(seen, ["1", "2"]);
  });
});

Deno.test("scanLines on an empty file sees no line", () => {
  withFile("", (path) => assert.deepEqual(collect(path), []));
});

Deno.test("every line's latin1 copy has one character per byte, across chunks and CRs", () => {
  const bytes = new TextEncoder().encode(
    ["ascii", "café 数据 ✓ 😀", "x".repeat(100) + "é", "crlf line\r", "", "tail é"].join("\n"),
  );
  withFile(bytes, (path) => {
    for (const chunkSize of [3, 7, 64, 1024]) {
      let lines = 0;
      scanLines(path, (line) => {
        lines++;
        assert.equal(line.latin1.length, line.bytes.length);
        line.bytes.forEach((byte, i) => assert.equal(line.latin1.charCodeAt(i), byte));
      }, { chunkSize });
      assert.equal(lines, 6);
    }
  });
});

Deno.test("scanLines gives the same lines, lengths and latin1 whatever the chunk size and limit", () => {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const lines = Array.from({ length: 300 }, (_, i) => {
    const size = random() < 0.1 ? Math.floor(random() * 5_000) : Math.floor(random() * 300);
    return "é数x\r".repeat(Math.ceil(size / 4)).slice(0, size) + (i % 7 === 0 ? "\r" : "");
  });
  const bytes = new TextEncoder().encode(lines.join("\n"));
  const expected = lines.map((text) => new TextEncoder().encode(text.replace(/\r$/, "")));
  withFile(bytes, (path) => {
    for (const chunkSize of [1, 5, 64, 1000, 4096, 120 * 1024]) {
      for (const maxLineBytes of [2_000, 16 * 1024 * 1024]) {
        const prefix = 50;
        let n = 0;
        scanLines(path, (line) => {
          const whole = expected[n];
          const full = new TextEncoder().encode(lines[n]).length;
          assert.equal(line.number, n + 1);
          assert.equal(line.length, full, `line ${n + 1}, chunk ${chunkSize}`);
          assert.equal(line.unterminated, n === lines.length - 1);
          assert.equal(line.latin1.length, line.bytes.length);
          line.bytes.forEach((byte, i) => assert.equal(line.latin1.charCodeAt(i), byte));
          // A line over the limit is cut when it does not fit in one read.
          if (line.oversized) {
            assert.ok(full > maxLineBytes);
            assert.deepEqual(
              [...line.bytes],
              [...whole.subarray(0, prefix)].slice(0, line.bytes.length),
            );
          } else {
            assert.deepEqual([...line.bytes], [...whole]);
          }
          n++;
        }, { chunkSize, maxLineBytes, oversizedPrefix: prefix });
        assert.equal(n, lines.length);
      }
    }
  });
});

Deno.test("a line longer than a read gets one buffer of its own size, then reading goes on", () => {
  // Measured first, not gathered in a doubling buffer: on a 100 MB transcript
  // the doubled buffers and their per-read latin1 copies cost ~20 MiB of peak RSS.
  const long = "w".repeat(300_000) + "\r";
  withFile(`first\n${long}\nlast`, (path) => {
    const seen: { length: number; owned: number; latin1: number; unterminated: boolean }[] = [];
    const summary = scanLines(path, (line) => {
      seen.push({
        length: line.length,
        owned: line.bytes.buffer.byteLength,
        latin1: line.latin1.length,
        unterminated: line.unterminated,
      });
    }, { chunkSize: 1024 });
    assert.deepEqual(seen[1], {
      length: long.length,
      owned: long.length,
      latin1: long.length - 1,
      unterminated: false,
    });
    assert.deepEqual(seen.map((s) => s.length), [5, long.length, 4]);
    assert.equal(seen[2].unterminated, true);
    assert.equal(summary.bytes, 6 + long.length + 1 + 4);
  });
});
