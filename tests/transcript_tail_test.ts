import assert from "node:assert/strict";
import { join } from "node:path";
import { readHeadCwd, readTail } from "../lib/transcript/tail.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";

function withDir(body: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-tail-" });
  try {
    body(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** A transcript of about `kb` KB whose metadata changes over time, as Claude re-appends it. */
function longSession(kb: number): TranscriptBuilder {
  const builder = new TranscriptBuilder({ cwd: "/home/alice/src/app", gitBranch: "feature/x" });
  builder.metadata({ customTitle: "old name" });
  let turn = 0;
  while (builder.toString().length < kb * 1024) {
    turn++;
    builder.prompt(`ask ${turn}`)
      .tool("Read", { file_path: `/home/alice/src/app/f${turn}.ts` }, "x".repeat(4_000))
      .text(`answer ${turn}`)
      .turnEnd()
      .metadata({
        lastPrompt: `ask ${turn}`,
        aiTitle: `title ${turn}`,
        mode: "normal",
        permissionMode: "plan",
      });
  }
  return builder.metadata({ customTitle: "my name" });
}

Deno.test("readTail reads the latest metadata and activity from the last 64 KB only", () => {
  withDir((dir) => {
    const builder = longSession(400);
    const path = builder.write(join(dir, "s.jsonl"));
    const tail = readTail(path);
    const turns = builder.lines.filter((l) => l.includes('"type":"last-prompt"')).length;
    assert.equal(tail.customTitle, "my name");
    assert.equal(tail.aiTitle, `title ${turns}`);
    assert.equal(tail.lastPrompt, `ask ${turns}`);
    assert.equal(tail.permissionMode, "plan");
    assert.equal(tail.gitBranch, "feature/x");
    assert.equal(tail.cwd, "/home/alice/src/app");
    assert.equal(tail.lastTimestamp, new Date(builder.now.getTime() - 1_000).toISOString());
    assert.equal(tail.endsInTraffic, false);
    assert.equal(tail.truncated, false);
  });
});

Deno.test("readTail widens the window when one huge last line hides every timestamp", () => {
  withDir((dir) => {
    const builder = longSession(100);
    builder.tool("Read", { file_path: "/big" }, "B".repeat(300 * 1024));
    const path = builder.write(join(dir, "s.jsonl"));
    const tail = readTail(path);
    assert.equal(tail.lastTimestamp, new Date(builder.now.getTime() - 1_000).toISOString());
    assert.equal(tail.endsInTraffic, true);
  });
});

Deno.test("readTail flags a half-written last line and still reads the lines before it", () => {
  withDir((dir) => {
    const builder = longSession(10);
    const path = join(dir, "s.jsonl");
    Deno.writeTextFileSync(
      path,
      builder.toString() + '{"parentUuid":"a","isSidechain":false,"type":"assi',
    );
    const tail = readTail(path);
    assert.equal(tail.truncated, true);
    assert.equal(tail.endsInTraffic, true);
    assert.equal(tail.customTitle, "my name");
  });
});

Deno.test("readHeadCwd finds where the session started", () => {
  withDir((dir) => {
    const path = longSession(5).write(join(dir, "s.jsonl"));
    assert.equal(readHeadCwd(path), "/home/alice/src/app");
  });
});

/** A pasted screenshot's worth of prompt: over 4 MiB, with escapes and a decoy timestamp key. */
const HUGE_PROMPT = 'see {"timestamp":"1999-01-01T00:00:00.000Z"} \\ "quoted" ' +
  "iVBORw0KGgo".repeat(420_000) + "\\";

Deno.test("readTail finds the timestamp of a last line over 4 MiB, whatever follows it", () => {
  withDir((dir) => {
    const builder = longSession(20).prompt(HUGE_PROMPT);
    const stamp = JSON.parse(builder.lines.at(-1)!).timestamp;
    assert.ok(builder.lines.at(-1)!.length > 4 * 1024 * 1024);

    const last = readTail(builder.write(join(dir, "last.jsonl")));
    assert.equal(last.lastTimestamp, stamp);
    assert.equal(last.endsInTraffic, true);
    assert.equal(last.truncated, false);
    // The titles and last prompt sit before the huge line: recover still names the session.
    assert.equal(last.customTitle, "my name");
    assert.match(last.aiTitle ?? "", /^title \d+$/);
    assert.equal(last.permissionMode, "plan");

    // A tool result whose nested copy carries its own (older) timestamp key.
    builder.toolResult("toolu_x", "B".repeat(4_300_000), {
      toolUseResult: { timestamp: "1999-01-01T00:00:00.000Z", stdout: "B".repeat(100) },
    }).metadata({ lastPrompt: "see", aiTitle: "shot" });
    const result = JSON.parse(builder.lines.filter((l) => l.includes("toolu_x")).at(-1)!);
    const closed = readTail(builder.write(join(dir, "closed.jsonl")));
    assert.equal(closed.lastTimestamp, result.timestamp);
    assert.equal(closed.endsInTraffic, false);
    assert.equal(closed.lastPrompt, "see");

    const cut = join(dir, "cut.jsonl");
    const before = longSession(20);
    Deno.writeTextFileSync(
      cut,
      before.toString() + before.prompt(HUGE_PROMPT).lines.at(-1)!.slice(0, -40),
    );
    const halfWritten = readTail(cut);
    assert.equal(halfWritten.truncated, true);
    assert.equal(halfWritten.endsInTraffic, true);
    const stamped = before.lines.slice(0, -1).map((l) => JSON.parse(l).timestamp).filter(Boolean);
    assert.equal(halfWritten.lastTimestamp, stamped.at(-1));
  });
});
