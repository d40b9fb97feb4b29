import assert from "node:assert/strict";
import { readEntries, TranscriptError } from "../lib/transcript/entries.ts";
import type { Entry } from "../lib/transcript/model.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";

function withTranscript(content: string | Uint8Array, body: (path: string) => void): void {
  const path = Deno.makeTempFileSync({ prefix: "claudecm-entries-", suffix: ".jsonl" });
  try {
    if (typeof content === "string") Deno.writeTextFileSync(path, content);
    else Deno.writeFileSync(path, content);
    body(path);
  } finally {
    Deno.removeSync(path);
  }
}

const sample = () =>
  new TranscriptBuilder({ cwd: "/home/alice/src/app" })
    .metadata({ mode: "normal", permissionMode: "default" })
    .prompt("first ask")
    .attachment("environment", { snapshot: { platform: "linux" } })
    .text("a reply")
    .metadata({ lastPrompt: "first ask", aiTitle: "Sample" });

Deno.test("readEntries yields the modelled entries and skips unknown types", () => {
  withTranscript(sample().raw('{"type":"cost-state","totalCostUSD":0}').toString(), (path) => {
    const types: string[] = [];
    const report = readEntries(path, (entry) => types.push(entry.type));
    assert.deepEqual(types, [
      "mode",
      "permission-mode",
      "user",
      "assistant",
      "last-prompt",
      "ai-title",
    ]);
    assert.equal(report.corrupt, 0);
    assert.equal(report.truncated, false);
  });
});

Deno.test("readEntries in lenient mode skips and counts a corrupt middle line", () => {
  const builder = sample();
  builder.lines.splice(3, 0, '{"type":"user","message":{"role":"user","content":"oops"', "garbage");
  withTranscript(builder.toString(), (path) => {
    const entries: Entry[] = [];
    const report = readEntries(path, (entry) => entries.push(entry));
    assert.equal(report.corrupt, 2);
    assert.deepEqual(report.corruptLines, [4, 5]);
    assert.equal(entries.filter((e) => e.type === "assistant").length, 1);
  });
});

Deno.test("readEntries in strict mode names the first bad line", () => {
  const builder = sample();
  builder.lines.splice(2, 0, "{not json}");
  withTranscript(builder.toString(), (path) => {
    assert.throws(
      () => readEntries(path, () => {}, { mode: "strict" }),
      (error: unknown) =>
        error instanceof TranscriptError && /line 3 is not valid JSON/.test(error.message),
    );
  });
});

Deno.test("readEntries reports a half-written final line as truncated without aborting", () => {
  const text = sample().toString() +
    '{"parentUuid":"x","isSidechain":false,"type":"assistant","mess';
  withTranscript(text, (path) => {
    let seen = 0;
    const report = readEntries(path, () => seen++);
    assert.equal(report.truncated, true);
    assert.equal(report.corrupt, 0);
    assert.equal(seen, 6);
    assert.throws(() => readEntries(path, () => {}, { mode: "strict" }), /line 8 is half-written/);
  });
});

Deno.test("readEntries survives non-UTF-8 bytes, CRLF and a BOM", () => {
  const lines = sample().lines;
  const encoder = new TextEncoder();
  const parts = [
    new Uint8Array([0xef, 0xbb, 0xbf]),
    encoder.encode(lines.join("\r\n") + "\r\n"),
    encoder.encode('{"type":"user","message":{"role":"user","content":"caf'),
    new Uint8Array([0xe9, 0xff]),
    encoder.encode('"}}\r\n'),
  ];
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  withTranscript(bytes, (path) => {
    const prompts: string[] = [];
    const report = readEntries(path, (entry) => {
      if (entry.type === "user" && typeof entry.content === "string") prompts.push(entry.content);
    });
    assert.equal(report.corrupt, 0);
    assert.deepEqual(prompts, ["first ask", "caf\uFFFD\uFFFD"]);
  });
});

Deno.test("readEntries does not parse lines whose type is not wanted", () => {
  // A corrupt line of an unwanted type goes unnoticed in lenient mode: it is never parsed.
  const text = sample().raw('{"type":"attachment","attachment":{broken').toString();
  withTranscript(text, (path) => {
    const report = readEntries(path, () => {}, { types: new Set(["user"]) });
    assert.equal(report.corrupt, 0);
    assert.equal(readEntries(path, () => {}).corrupt, 0);
  });
});

Deno.test("readEntries turns a missing file into a TranscriptError", () => {
  assert.throws(() => readEntries("/nonexistent/claudecm/x.jsonl", () => {}), TranscriptError);
});
