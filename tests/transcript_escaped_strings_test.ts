/**
 * Every fast transcript reader decodes a JSON string with escapes as
 * JSON.parse does. A Windows `cwd` always has them (`"C:\\Users\\…"`): a
 * reader that gave up on escapes left the cwd of every Windows session empty.
 */
import assert from "node:assert/strict";
import { join } from "../lib/core/path.ts";
import { headSessionId } from "../lib/transcript/head_session.ts";
import { checkDeath } from "../lib/transcript/death.ts";
import { extractRescue } from "../lib/transcript/rescue_extract.ts";
import { peekString, peekToolResultIds, peekType } from "../lib/transcript/scan.ts";
import { peekAssistant } from "../lib/transcript/scan_assistant.ts";
import { readSessionFacts } from "../lib/transcript/session_facts.ts";
import { readHeadCwd, readTail } from "../lib/transcript/tail.ts";
import { ESCAPED_STRINGS } from "./helpers/escaped_strings.ts";

const SESSION = "11111111-2222-3333-4444-555555555555";
const encoder = new TextEncoder();

/** A user line and an assistant line recording `json` as cwd, branch and slug. */
function conversation(json: string, options: { cwdKey?: string; filler?: string } = {}): string {
  const cwdKey = options.cwdKey ?? '"cwd"';
  const filler = options.filler === undefined ? "" : `"toolUseResult":"${options.filler}",`;
  const fields = (uuid: string, time: string) =>
    `"uuid":"${uuid}","timestamp":"2026-05-01T10:00:0${time}.000Z",${filler}${cwdKey}:${json},` +
    `"sessionId":"\\u0031${SESSION.slice(1)}","gitBranch":${json},"slug":${json}`;
  return [
    `{"parentUuid":null,"isSidechain":false,"type":"user",` +
    `"message":{"role":"user","content":"please fix the build"},${fields("u1", "0")}}`,
    `{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"role":"assistant",` +
    `"model":"m","content":[{"type":"text","text":"Fixed: the build passes again."}]},` +
    `${fields("a1", "5")}}`,
  ].join("\n") + "\n";
}

function withTranscript(text: string, body: (path: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-escaped-" });
  try {
    const path = join(dir, `${SESSION}.jsonl`);
    Deno.writeTextFileSync(path, text);
    body(path);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

for (const { name, value, json } of ESCAPED_STRINGS) {
  Deno.test(`every reader decodes an escaped string: ${name}`, () => {
    const text = conversation(json);
    const [userLine, assistantLine] = text.split("\n").map((line) => encoder.encode(line));
    assert.equal(peekString(userLine, "cwd"), value, "peekString");
    assert.equal(peekString(userLine, "sessionId"), SESSION, "peekString of an escaped id");
    const assistant = peekAssistant(assistantLine, {
      inputKeys: new Set(),
      wholeInput: () => false,
    });
    assert.equal(assistant?.cwd, value, "peekAssistant");
    withTranscript(text, (path) => {
      assert.equal(readHeadCwd(path), value, "readHeadCwd");
      const tail = readTail(path);
      assert.deepEqual([tail.cwd, tail.gitBranch], [value, value], "readTail");
      const death = checkDeath(path);
      assert.deepEqual(
        [death.cwd, death.gitBranch, death.slug],
        [value, value, value],
        "checkDeath",
      );
      assert.equal(readSessionFacts(path).cwd, value, "readSessionFacts");
      const rescue = extractRescue(path);
      assert.deepEqual([rescue.cwd, rescue.slug], [value, value], "extractRescue");
      assert.equal(headSessionId(path), SESSION, "headSessionId");
    });
  });

  Deno.test(`readTail decodes an escaped string on a line longer than its widest window: ${name}`, () => {
    withTranscript(conversation(json, { filler: "x".repeat(20_000) }), (path) => {
      const tail = readTail(path, { window: 1024, maxWindow: 4096 });
      assert.equal(tail.lastTimestamp, "2026-05-01T10:00:05.000Z");
      assert.deepEqual([tail.cwd, tail.gitBranch], [value, value]);
    });
  });
}

Deno.test("a key name written with escapes is still that key", () => {
  const json = ESCAPED_STRINGS[0].json;
  const line = encoder.encode(`{"type":"user","\\u0063wd":${json}}`);
  assert.equal(peekString(line, "cwd"), ESCAPED_STRINGS[0].value);
  withTranscript(conversation(json, { cwdKey: '"\\u0063wd"' }), (path) => {
    assert.equal(readHeadCwd(path), ESCAPED_STRINGS[0].value);
    assert.equal(readTail(path).cwd, ESCAPED_STRINGS[0].value);
    assert.equal(readTail(path, { window: 64, maxWindow: 64 }).cwd, ESCAPED_STRINGS[0].value);
  });
});

Deno.test("peekType and peekToolResultIds decode escaped values", () => {
  const line = encoder.encode(
    `{"type":"\\u0075ser","message":{"role":"user","content":[` +
      `{"type":"tool\\u005fresult","tool_use_id":"toolu_\\u0041\\\\1","content":"ok"}]}}`,
  );
  assert.equal(peekType(line), "user");
  assert.deepEqual(peekToolResultIds(line), ["toolu_A\\1"]);
});
