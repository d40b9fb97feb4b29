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
