import assert from "node:assert/strict";
import {
  peekString,
  peekToolResultIds,
  peekToolResults,
  peekTrue,
  peekType,
} from "../lib/transcript/scan.ts";

const bytes = (value: unknown) =>
  new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));

Deno.test("peekType finds the top-level type past nested objects that have their own", () => {
  const line = {
    parentUuid: "p",
    isSidechain: false,
    attachment: { type: "deferred_tools_delta", addedNames: ['a"b', "{["] },
    type: "attachment",
  };
  assert.equal(peekType(bytes(line)), "attachment");
});

Deno.test("peekType reads a type that comes first or after escaped strings", () => {
  assert.equal(peekType(bytes({ type: "ai-title", aiTitle: "x" })), "ai-title");
  assert.equal(peekType(bytes({ note: 'he said "type":"user" \\', type: "summary" })), "summary");
  assert.equal(peekType(bytes(' \t{ "type" : "mode" }')), "mode");
});

Deno.test("peekType gives undefined on garbage, arrays and a half-written line", () => {
  assert.equal(peekType(bytes("not json")), undefined);
  assert.equal(peekType(bytes([1, 2])), undefined);
  assert.equal(peekType(bytes('{"parentUuid":"abc","isSide')), undefined);
  assert.equal(peekType(bytes({ other: 1 })), undefined);
});

Deno.test("peekString and peekTrue read top-level keys only", () => {
  const line = bytes({
    message: { cwd: "/nested", isSidechain: true },
    cwd: "/top",
    isSidechain: false,
  });
  assert.equal(peekString(line, "cwd"), "/top");
  assert.equal(peekTrue(line, "isSidechain"), false);
  assert.equal(peekTrue(bytes({ isSidechain: true }), "isSidechain"), true);
  assert.equal(peekString(line, "missing"), undefined);
});

Deno.test("peekToolResultIds lists the ids of tool-result user lines only", () => {
  const result = {
    type: "user",
    message: {
      role: "user",
      content: [
        { tool_use_id: "toolu_1", type: "tool_result", content: 'out "quoted" \\ {[' },
        { type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: "x" }] },
      ],
    },
    toolUseResult: { stdout: "..." },
  };
  assert.deepEqual(peekToolResultIds(bytes(result)), ["toolu_1", "toolu_2"]);
  const prompt = { type: "user", message: { role: "user", content: "hello" } };
  assert.equal(peekToolResultIds(bytes(prompt)), undefined);
  const mixed = {
    type: "user",
    message: { content: [{ type: "tool_result", tool_use_id: "t" }, { type: "text", text: "hi" }] },
  };
  assert.equal(peekToolResultIds(bytes(mixed)), undefined);
});

Deno.test("peekToolResults sees is_error wherever the block has it, and only when true", () => {
  const line = (...blocks: unknown[]) => bytes({ type: "user", message: { content: blocks } });
  const ok = {
    tool_use_id: "a",
    type: "tool_result",
    content: 'x "is_error": true',
    is_error: false,
  };
  const failed = { is_error: true, type: "tool_result", tool_use_id: "b", content: [] };
  assert.deepEqual(peekToolResults(line(ok)), { ids: ["a"], isError: false });
  assert.deepEqual(peekToolResults(line(ok, failed)), { ids: ["a", "b"], isError: true });
  const spaced = ' { "type" : "user" , "message" : { "content" : [ { "type" : "tool_result" , ' +
    '"content" : "ok" , "tool_use_id" : "c" , "is_error" : true } ] } } ';
  assert.deepEqual(peekToolResults(bytes(spaced)), { ids: ["c"], isError: true });
  // Structure JSON.parse would reject is not followed.
  assert.equal(
    peekToolResults(bytes('{"message":{"content":[{"type":"tool_result" "tool_use_id":"d"}]}}')),
    undefined,
  );
});

Deno.test("peeks accept a scanned line or bare bytes alike", () => {
  const raw = bytes({
    type: "assistant",
    cwd: "/home/alice/a-long-project-path",
    isSidechain: true,
  });
  const latin1 = new TextDecoder("latin1").decode(raw);
  assert.equal(peekType({ bytes: raw, latin1 }), "assistant");
  assert.equal(peekString({ bytes: raw, latin1 }, "cwd"), "/home/alice/a-long-project-path");
  assert.equal(peekTrue({ bytes: raw, latin1 }, "isSidechain"), true);
});

Deno.test("peekToolResults on a scanned line is not fooled by escaped keys in a long result", () => {
  const scanned = (value: unknown) => {
    const raw = bytes(value);
    return { bytes: raw, latin1: new TextDecoder("latin1").decode(raw) };
  };
  const output = (extra: string) =>
    `${'const a = "b"; // 数据 ✓\n'.repeat(20)}${extra}${'\\"'.repeat(30)}\\`;
  const block = (id: string, text: string, isError: boolean) => ({
    tool_use_id: id,
    type: "tool_result",
    content: text,
    is_error: isError,
  });
  const line = (...blocks: unknown[]) =>
    scanned({ type: "user", message: { role: "user", content: blocks }, toolUseResult: {} });
  const fake = '","is_error":true}, {"tool_use_id":"fake","type":"text","is_error":true';
  assert.deepEqual(peekToolResults(line(block("a", output(fake), false))), {
    ids: ["a"],
    isError: false,
  });
  assert.deepEqual(
    peekToolResults(line(block("a", output(fake), false), block("b", output(""), true))),
    { ids: ["a", "b"], isError: true },
  );
  // A result without is_error is crossed to the block after it, not past that block's text.
  const bare = { tool_use_id: "c", type: "tool_result", content: output("") };
  assert.deepEqual(peekToolResults(line(bare, block("d", "short", true))), {
    ids: ["c", "d"],
    isError: true,
  });
  // A text block after a long result still makes the line more than results.
  const text = { type: "text", text: output(fake) };
  assert.equal(peekToolResults(line(block("a", output(fake), false), text)), undefined);
});
