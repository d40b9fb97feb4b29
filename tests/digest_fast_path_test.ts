/**
 * The digest reads assistant lines from their raw bytes in lenient mode
 * (peekAssistant, only the tool-input keys it shows) and with JSON.parse in
 * strict mode. Both must find the same working state.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { collectDigest, type DigestData } from "../lib/transcript/digest.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";

const ID = "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
const CWD = "/home/alice/src/app";
const FIXTURES = fileURLToPath(new URL("../fixtures/transcripts/", import.meta.url));

function bothWays(path: string): { fast: DigestData; parsed: DigestData } {
  const fast = collectDigest(path, ID);
  const parsed = collectDigest(path, ID, { mode: "strict" });
  return { fast, parsed };
}

function digestsOf(text: string): { fast: DigestData; parsed: DigestData } {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-digest-fast-" });
  try {
    const path = join(dir, `${ID}.jsonl`);
    Deno.writeTextFileSync(path, text);
    return bothWays(path);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("digest from raw assistant bytes equals the parsed digest on every shape it reads", () => {
  const b = new TranscriptBuilder({ cwd: CWD, sessionId: ID, gitBranch: "main" });
  b.prompt("port the parser")
    .text("I will start.<system-reminder>noise</system-reminder> Reading first.")
    .tool("Write", {
      file_path: `${CWD}/src/a.ts`,
      content: 'const s = "quoted \\"inner\\" text"; // café 数据 ✓\n'.repeat(200),
    }, "File created")
    .tool("Edit", { file_path: `${CWD}/src/b.ts`, old_string: "a", new_string: "b" }, "ok")
    .tool("TodoWrite", {
      todos: [{ content: "parse", status: "completed" }, { content: "test", status: "pending" }],
    }, "ok")
    .tool("TaskCreate", { subject: "ship it" }, "ok")
    .tool("TaskUpdate", { taskId: 1, status: "in_progress" }, "ok")
    // No detail key: the detail is the input's first string, so the whole input is read.
    .tool("mcp__db__query", { limit: 5, sql: "select 1", path: "ignored" }, "1")
    .text("side work", { isSidechain: true })
    .apiError("Overloaded")
    .prompt("and the branch?");
  // The branch changes on the last (assistant) line only.
  b.gitBranch = "feat/port";
  b.toolUse("Bash", { command: "git push", description: "push" });
  const { fast, parsed } = digestsOf(b.toString());

  assert.deepEqual({ ...fast, report: undefined }, { ...parsed, report: undefined });
  assert.equal(fast.branch, "feat/port");
  assert.equal(fast.lastAssistantText, "I will start. Reading first.");
  assert.deepEqual(fast.toolActions.map((a) => a.detail).slice(-3), [
    "task 1 → in_progress",
    "select 1",
    "git push",
  ]);
  assert.deepEqual(fast.filesTouched, ["src/b.ts", "src/a.ts"]);
  assert.deepEqual(fast.todos, [{ content: "ship it", status: "in_progress" }]);
  assert.match(fast.incomplete.join("\n"), /in progress on Bash: git push/);
});

Deno.test("an assistant line the byte reader cannot follow is parsed instead", () => {
  const b = new TranscriptBuilder({ cwd: CWD, sessionId: ID });
  b.prompt("go").toolUse("Bash", { command: "make" });
  // An escaped key name could be any key: the peek gives the line up to JSON.parse.
  b.lines[b.lines.length - 1] = b.lines.at(-1)!.replace('"content":[', '"\\u0063ontent":[');
  const { fast, parsed } = digestsOf(b.toString());
  assert.deepEqual({ ...fast, report: undefined }, { ...parsed, report: undefined });
  assert.deepEqual(fast.toolActions, [{ name: "Bash", detail: "make" }]);
});

Deno.test("digest from raw assistant bytes equals the parsed digest on the reference transcripts", () => {
  const paths = [join(FIXTURES, "example-session.jsonl")];
  for (const entry of Deno.readDirSync(join(FIXTURES, "real-claude"))) {
    paths.push(join(FIXTURES, "real-claude", entry.name));
  }
  for (const path of paths) {
    const { fast, parsed } = bothWays(path);
    assert.deepEqual({ ...fast, report: undefined }, { ...parsed, report: undefined }, path);
  }
});
