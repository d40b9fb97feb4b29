import assert from "node:assert/strict";
import { join } from "node:path";
import { docsOfLine, type SessionFacts, TOOL_TEXT_LIMIT } from "../lib/transcript/search_text.ts";
import { readSearchText } from "../lib/transcript/search_text_file.ts";
import { peekValues } from "../lib/transcript/scan.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";

const encoder = new TextEncoder();
const docs = (line: unknown, facts: SessionFacts = {}) =>
  docsOfLine(encoder.encode(JSON.stringify(line)), facts);

Deno.test("search text: prompts, answers, calls and outputs each get their role", () => {
  const lines = new TranscriptBuilder({ cwd: "/w" })
    .prompt("first ask")
    .text("an answer")
    .tool("Grep", { pattern: "needle", path: "/w/src", options: { glob: "*.ts" } }, "found it")
    .lines.map((line) => JSON.parse(line));
  const facts: SessionFacts = {};
  const found = lines.flatMap((line) => docs(line, facts));
  assert.deepEqual(found.map((d) => [d.role, d.text]), [
    ["user", "first ask"],
    ["assistant", "an answer"],
    ["tool", "Grep\nneedle\n/w/src\n*.ts"],
    ["tool_output", "found it"],
  ]);
  assert.ok(found.every((d) => d.timestamp?.startsWith("2026-")));
  assert.deepEqual([facts.firstPrompt, facts.cwd, facts.conversation], ["first ask", "/w", true]);
});

Deno.test("search text: a subagent's prompt is Claude's words, not the user's", () => {
  const line = {
    type: "user",
    isSidechain: true,
    message: { role: "user", content: "Find where the quokka config is loaded" },
    timestamp: "2026-11-30T10:00:00Z",
    cwd: "/w",
  };
  const facts: SessionFacts = {};
  assert.deepEqual(docs(line, facts).map((d) => [d.role, d.text]), [
    ["assistant", "Find where the quokka config is loaded"],
  ]);
  assert.equal(facts.firstPrompt, undefined, "not the session's first prompt either");
});

Deno.test("search text: colour codes in tool output do not glue themselves to words", () => {
  const line = {
    type: "user",
    message: {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "t1",
        content: "\x1b[31mFAILED\x1b[0m tests/a.test.ts\n\x1b[1;32mPASS\x1b[22m b",
      }],
    },
    timestamp: "2026-11-30T10:00:00Z",
  };
  assert.deepEqual(docs(line).map((d) => d.text), ["FAILED tests/a.test.ts\nPASS b"]);
});

Deno.test("search text leaves out injected lines, summaries, API errors and housekeeping", () => {
  const builder = new TranscriptBuilder({ cwd: "/w" })
    .prompt("Caveat: injected", { isMeta: true })
    .prompt("<command-name>/clear</command-name>")
    .apiError("Prompt is too long")
    .compact("summary of everything");
  const found = builder.lines.flatMap((line) => docs(JSON.parse(line)));
  assert.deepEqual(found, []);
});

Deno.test("search text: an escaped (Windows) cwd, a -p session, a whole tool output, a capped call", () => {
  const facts: SessionFacts = {};
  docs({
    type: "user",
    cwd: "C:\\Users\\me\\app",
    entrypoint: "sdk-cli",
    promptSource: "sdk",
    message: { content: "summarise" },
  }, facts);
  assert.equal(facts.cwd, "C:\\Users\\me\\app");
  assert.equal(facts.printMode, true);
  const big = docs({
    type: "user",
    message: {
      content: [{ type: "tool_result", tool_use_id: "t", content: `${"x".repeat(50_000)}ENOSPC` }],
    },
    toolUseResult: { stdout: "y".repeat(50_000) },
  });
  assert.equal(big[0].text.length, 50_006, "an output is searchable whole");
  const call = docs({
    type: "assistant",
    message: {
      content: [{ type: "tool_use", name: "Write", input: { content: "z".repeat(9000) } }],
    },
  });
  assert.equal(call[0].text.length, TOOL_TEXT_LIMIT);
});

Deno.test("readSearchText stops before a half-written line and reports where it stopped", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "t.jsonl");
    const done = new TranscriptBuilder({ cwd: "/w" }).prompt("complete one").toString();
    Deno.writeTextFileSync(path, done + '{"type":"user","message":{"content":"half');
    const texts: string[] = [];
    const read = readSearchText(path, (d) => texts.push(...d.map((x) => x.text)));
    assert.deepEqual(texts, ["complete one"]);
    assert.equal(read.end, encoder.encode(done).length);
    const again = readSearchText(path, () => assert.fail("nothing new"), { start: read.end });
    assert.equal(again.bytes, 0);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("peekValues finds several keys in one walk and can stop at a big key", () => {
  const line = encoder.encode(
    '{"type":"user","message":{"content":"a \\"b\\""},"toolUseResult":{"x":1},"cwd":"/w"}',
  );
  const all = peekValues(line, ["message", "cwd", "isMeta"]);
  assert.equal(new TextDecoder().decode(all.message), '{"content":"a \\"b\\""}');
  assert.equal(new TextDecoder().decode(all.cwd), '"/w"');
  assert.equal(all.isMeta, undefined);
  const stopped = peekValues(line, ["message", "cwd"], "toolUseResult");
  assert.equal(stopped.cwd, undefined);
  assert.ok(stopped.message !== undefined);
});
