import assert from "node:assert/strict";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { type AssistantEntry, toEntry, type ToolUseBlock } from "../lib/transcript/model.ts";
import { peekAssistant } from "../lib/transcript/scan_assistant.ts";
import { SUMMARY_INPUT, toolSummary } from "../lib/transcript/skeleton.ts";
import { filePathOf } from "../lib/transcript/tools.ts";
import { toLatin1 } from "../lib/transcript/latin1.ts";

const WHOLE = { inputKeys: new Set<string>(), wholeInput: () => true };
/** A line as the scanner hands it out, with its latin1 copy (bare bytes are checked too). */
function scanned(text: string): { bytes: Uint8Array; latin1: string } {
  const bytes = new TextEncoder().encode(text);
  return { bytes, latin1: toLatin1(bytes) };
}
const encode = (text: string) => new TextEncoder().encode(text);

/** What the peek promises to equal: the parsed entry without the fields it leaves out. */
function parsed(text: string): Partial<AssistantEntry> | undefined {
  const entry = toEntry(JSON.parse(text)) as AssistantEntry | undefined;
  if (entry === undefined) return undefined;
  return {
    type: entry.type,
    cwd: entry.cwd,
    gitBranch: entry.gitBranch,
    isSidechain: entry.isSidechain,
    isMeta: entry.isMeta,
    content: entry.content,
    isApiErrorMessage: entry.isApiErrorMessage,
  };
}

/** Assistant lines as the builder writes them, with the contents that are hard to walk. */
function builtLines(): string[] {
  const b = new TranscriptBuilder({ cwd: "/home/alice/src/café app" });
  b.text('He said "hi" \\ then {left} [right]\nsecond line\ttab 数据 ✓ 😀 \u001b[31mred');
  b.text("");
  b.apiError("Prompt is too long");
  b.text("a side branch", { isSidechain: true });
  b.toolUse("Read", { file_path: "/home/alice/src/café app/naïve.ts" });
  b.toolUse("Write", { file_path: "/tmp/x.ts", content: 'const s = "\\"";\n'.repeat(500) });
  b.toolUse("Edit", { old_string: "a\\b", new_string: '"q"', file_path: "/tmp/y.ts" });
  b.toolUse("Bash", { command: "ls -la | grep '\"x\"'", description: "List \u2028 files" });
  b.toolUse("Grep", { pattern: "fo+\\(", path: "/src" });
  b.toolUse("mcp__github__create_issue", { title: "t", body: "b" });
  b.toolUse("TodoWrite", { todos: [{ content: "x", status: "pending" }] });
  b.toolUse("WebFetch", { url: "https://example.com/é", prompt: "sum" });
  b.toolUse("NotebookEdit", { notebook_path: "/n.ipynb", new_source: "x" });
  b.toolUse("Odd", { 2: "numeric key first", a: 1, file_path: 7 });
  b.toolUse("Empty", {});
  return b.lines.filter((line) => JSON.parse(line).type === "assistant");
}

/** Hand-written lines: other key orders, repeats, spacing, unusual blocks. */
const HANDWRITTEN = [
  '{"message":{"content":[{"text":"text before type","type":"text"}]},"cwd":"/a","type":"assistant"}',
  '{"type":"assistant","message":{"content":"a plain string content"}}',
  '{"type":"assistant","cwd":"/first","message":{"content":[]},"cwd":"/second"}',
  '{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]},"message":{"content":[{"type":"text","text":"last wins"}]}}',
  '{ "type" : "assistant" , "message" : { "content" : [ { "type" : "tool_use" , "id" : "t1" , "name" : "Read" , "input" : { "file_path" : "/spaced" } } ] } , "isSidechain" : false }',
  '{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"no id"}}]}}',
  '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"Read","input":"not an object"}]}}',
  '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t3","name":"Read","input":{"file_path":"/a","file_path":"/b"}}]}}',
  '{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"hmm \\"deep\\"","signature":"abc"},{"type":"text","text":"after"}]}}',
  '{"type":"assistant","message":{"content":["a bare string",42,null,{"type":"image"}]}}',
  '{"type":"assistant","message":{"content":[{"type":"text","text":5}]},"isMeta":true,"isApiErrorMessage":false}',
  '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t4","name":"X","input":{"a":{"deep":[1,2,{"x":"y"}]},"b":"first string"}}]}}',
];

/** Lines the peek hands back to JSON.parse (undefined), which must then give the same entry. */
const UNFOLLOWED = [
  '{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]},"\\u0063wd":"/escaped key"}',
  '{"type":"assistant","message":"not an object"}',
  '{"type":"assistant","message":{"content":{"type":"text"}}}',
  '{"type":"assistant","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}}',
  '{"type":"assistant","message":{"content":[{"type":"text","text":"bad \\x escape"}]}}',
  '{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]}} trailing',
  '{"type":"assistant","message":{"content":[{"type":"text","text":"half-wri',
  '{"type":"user","message":{"content":[{"type":"text","text":"not an assistant"}]}}',
];

Deno.test("peekAssistant reads every line the way JSON.parse and toEntry do", () => {
  for (const text of [...builtLines(), ...HANDWRITTEN]) {
    const peeked = peekAssistant(scanned(text), WHOLE);
    assert.notEqual(peeked, undefined, text);
    assert.deepEqual(peeked, parsed(text), text);
    assert.deepEqual(peekAssistant(encode(text), WHOLE), peeked, text);
  }
});

Deno.test("peekAssistant leaves unusual lines to JSON.parse", () => {
  for (const text of UNFOLLOWED) {
    assert.equal(peekAssistant(scanned(text), WHOLE), undefined, text);
    assert.equal(peekAssistant(encode(text), WHOLE), undefined, text);
  }
});

Deno.test("a tool input read only for the skeleton's keys gives the same summary and file", () => {
  let partial = 0;
  for (const text of [...builtLines(), ...HANDWRITTEN]) {
    const peeked = peekAssistant(scanned(text), SUMMARY_INPUT)!;
    const whole = parsed(text)!;
    peeked.content.forEach((block, i) => {
      if (block.type !== "tool_use") return;
      const full = whole.content![i] as ToolUseBlock;
      if (Object.keys(block.input).length < Object.keys(full.input).length) partial++;
      assert.equal(toolSummary(block), toolSummary(full), text);
      assert.equal(filePathOf(block), filePathOf(full), text);
    });
  }
  assert.ok(partial >= 3, "the Write, Edit and Bash inputs were read in part");
});
