import assert from "node:assert/strict";
import { join } from "node:path";
import { lineStartBefore, scanTopLevelStrings } from "../lib/transcript/long_line.ts";

const KEYS = new Set(["timestamp", "type"]);

/** Lines whose strings put quotes, backslash runs and decoy keys at every chunk boundary. */
const LINES: Record<string, unknown>[] = [
  {
    type: "user",
    message: { content: 'a \\\\" {"timestamp":"x"} \\"\\\\\\', timestamp: "nested" },
    timestamp: "2026-11-30T10:00:00.000Z",
    extra: [1, true, null, { type: "inner" }],
  },
  { message: "\\".repeat(7), 'time"stamp': "escaped key", timestamp: "2026-11-30T11:00:00.000Z" },
  { type: "last-prompt", lastPrompt: "no timestamp here \u00e9\u6f22" },
];

Deno.test("scanTopLevelStrings reads top-level keys only, whatever the chunk boundaries", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-longline-" });
  try {
    const path = join(dir, "t.jsonl");
    const text = LINES.map((line) => JSON.stringify(line)).join("\n") + "\n";
    Deno.writeTextFileSync(path, text);
    const bytes = new TextEncoder().encode(text);
    const file = Deno.openSync(path);
    try {
      for (const chunkSize of [1, 2, 3, 5, 7, 64, 1 << 20]) {
        let start = 0;
        for (const line of LINES) {
          const end = bytes.indexOf(0x0a, start);
          assert.equal(lineStartBefore(file, end, chunkSize), start);
          const scan = scanTopLevelStrings(file, KEYS, { start, end, chunkSize });
          const expected = new Map(
            [...KEYS].flatMap((key) => key in line ? [[key, line[key] as string]] : []),
          );
          assert.deepEqual(scan.values, expected, `chunk ${chunkSize}`);
          assert.equal(scan.complete, true);
          const cut = scanTopLevelStrings(file, KEYS, { start, end: end - 1, chunkSize });
          assert.equal(cut.complete, false);
          start = end + 1;
        }
      }
    } finally {
      file.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
