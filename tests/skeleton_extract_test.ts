import assert from "node:assert/strict";
import { join } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { extractSkeleton } from "../lib/app/skeleton/extract.ts";
import { collectSkeleton } from "../lib/transcript/skeleton.ts";

Deno.test("the transcript file holds the whole filtered transcript, even a text larger than a flush", () => {
  const dir = Deno.makeTempDirSync();
  try {
    // 1.2 MB of UTF-8 in one turn: more than one encode buffer holds, so it is written in parts.
    const huge = "数据 ✓ café ".repeat(60_000);
    const b = new TranscriptBuilder({ cwd: "/home/alice/src/app" })
      .prompt("Summarise the log")
      .text(huge)
      .tool("Bash", { command: "ls", description: "List files" }, "out")
      .text("Done.");
    const path = b.write(join(dir, `${b.sessionId}.jsonl`));
    let expected = "";
    collectSkeleton(path, { onTranscript: (text) => expected += text });
    const files = extractSkeleton(path, b.sessionId, { outDir: join(dir, "out"), desc: "d", join });
    const written = Deno.readFileSync(files.transcriptPath);
    assert.equal(files.transcriptBytes, written.length);
    assert.ok(written.length > 1_000_000);
    assert.equal(new TextDecoder().decode(written), expected);
    assert.deepEqual([...Deno.readDirSync(join(dir, "out"))].map((e) => e.name).sort(), [
      `${b.sessionId}-skeleton.md`,
      `${b.sessionId}-transcript.md`,
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
