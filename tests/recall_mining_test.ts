import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { TranscriptError } from "../lib/transcript/entries.ts";
import {
  committedShas,
  pushedRefs,
  readCommand,
  splitCommands,
} from "../lib/transcript/shell_command.ts";
import { mineWork } from "../lib/transcript/work_records.ts";

const ROOT = Deno.makeTempDirSync({ prefix: "claudecm-recall-" });
globalThis.addEventListener("unload", () => Deno.removeSync(ROOT, { recursive: true }));

function tempTranscript(builder: TranscriptBuilder, tail = ""): { path: string; dir: string } {
  const dir = Deno.makeTempDirSync({ dir: ROOT });
  const path = join(dir, `${builder.sessionId}.jsonl`);
  Deno.writeTextFileSync(path, builder.toString() + tail);
  return { path, dir };
}

Deno.test("splitCommands follows quotes, chains, redirections and refuses substitutions", () => {
  assert.deepEqual(splitCommands(`cd "my dir" && rm -f 'a b.txt' c.txt 2>/dev/null; ls | wc -l`), [
    ["cd", "my dir"],
    ["rm", "-f", "a b.txt", "c.txt"],
    ["ls"],
    ["wc", "-l"],
  ]);
  assert.deepEqual(splitCommands("FOO=1 sudo rm x"), [["rm", "x"]]);
  assert.deepEqual(splitCommands("rm $(cat list)"), []);
  assert.deepEqual(splitCommands("echo 'unterminated"), []);
});

Deno.test("readCommand classifies commits, pushes, tests, removals, moves and look-ups", () => {
  assert.equal(readCommand("git add -A && git commit -m 'x'").kind, "commit");
  const both = readCommand("git commit -am x && git push origin main");
  assert.equal(both.kind, "commit");
  assert.equal(both.pushes, true);
  assert.equal(readCommand("git push").kind, "push");
  for (
    const test of [
      "npm test",
      "npm run test -- foo",
      "deno test -A",
      "pytest -q",
      "cargo test",
      "go test ./...",
    ]
  ) {
    assert.equal(readCommand(test).kind, "test", test);
  }
  assert.equal(readCommand("npm run build").kind, "command");
  assert.equal(readCommand("ls -la && git status && cat x | head").kind, "look");
  const rm = readCommand("cd sub && rm -rf build 'old file.txt' *.tmp");
  assert.equal(rm.kind, "delete");
  assert.deepEqual(rm.removes, [{ path: "build", cwd: "sub" }, {
    path: "old file.txt",
    cwd: "sub",
  }]);
  assert.deepEqual(readCommand("git rm --cached x").removes, []);
  assert.deepEqual(readCommand("git -C repo rm x").removes, [{ path: "x", cwd: undefined }]);
  const mv = readCommand("mv a.ts b.ts");
  assert.deepEqual([mv.removes, mv.creates], [[{ path: "a.ts", cwd: undefined }], [{
    path: "b.ts",
    cwd: undefined,
  }]]);
});

Deno.test("committedShas reads git commit's first line, root and detached commits included", () => {
  assert.deepEqual(committedShas("[main 1a2b3c4] add x\n 1 file changed"), [
    { branch: "main", sha: "1a2b3c4", subject: "add x" },
  ]);
  assert.deepEqual(committedShas("[feature/a (root-commit) abcdef0] first"), [
    { branch: "feature/a", sha: "abcdef0", subject: "first" },
  ]);
  assert.deepEqual(committedShas("[detached HEAD 0123456] fix"), [
    { branch: "detached HEAD", sha: "0123456", subject: "fix" },
  ]);
  assert.deepEqual(committedShas("nothing to commit, working tree clean"), []);
});

Deno.test("mineWork pairs calls with results: errors, rejections, interruptions, missing results", () => {
  const b = new TranscriptBuilder({ cwd: "/repo" })
    .prompt("go")
    .toolUse("Edit", { file_path: "/repo/a.ts", old_string: "x", new_string: "y" });
  b.toolResult(b.lastToolUseId, "String to replace not found in file.", { isError: true })
    .toolUse("Write", { file_path: "b.ts", content: "b\n" });
  b.toolResult(
    b.lastToolUseId,
    "The user doesn't want to proceed with this tool use. The tool use was rejected.",
    { isError: true },
  )
    .toolUse("Bash", { command: "sleep 100" });
  b.toolResult(b.lastToolUseId, "[Request interrupted by user for tool use]", { isError: true })
    .tool("Grep", { pattern: "TODO", path: "/repo" }, "a.ts")
    .toolUse("Bash", { command: "make" });
  const { path } = tempTranscript(b);
  const mined = mineWork(path);
  assert.deepEqual(
    mined.records.map((r) => [r.kind, r.outcome]),
    [["edit", "error"], ["write", "rejected"], ["command", "interrupted"], ["search", "success"], [
      "command",
      "no-result",
    ]],
  );
  assert.equal(
    mined.records[1].paths[0],
    resolve("/repo", "b.ts"),
    "a relative path is taken from the cwd",
  );
  assert.equal(mined.records[0].result, "String to replace not found in file.");
  assert.equal(mined.branch, "main");
  assert.equal(mined.cwd, "/repo");
  assert.equal(mined.truncated, false);
});

Deno.test("mineWork records a Write's hash, an Edit's new text, the final todo list and cwd changes", () => {
  const b = new TranscriptBuilder({ cwd: "/repo" })
    .prompt("go")
    .tool("Write", { file_path: "/repo/a.txt", content: "hello\n" }, "ok")
    .tool("MultiEdit", {
      file_path: "/repo/a.txt",
      edits: [{ old_string: "hello", new_string: "hi" }, { old_string: "x", new_string: "" }],
    }, "ok")
    .tool("TodoWrite", { todos: [{ content: "one", status: "pending" }] }, "ok")
    .tool("TodoWrite", {
      todos: [{ content: "one", status: "completed" }, { content: "two", status: "in_progress" }],
    }, "ok");
  const moved = new TranscriptBuilder({ cwd: "/repo/sub", sessionId: b.sessionId })
    .tool("Bash", { command: "rm gone.txt" }, "");
  const { path } = tempTranscript(b, moved.toString());
  const mined = mineWork(path);
  assert.deepEqual(mined.records.map((r) => r.kind), [
    "write",
    "edit",
    "cd",
    "delete",
    "todo",
    "todo",
  ]);
  const [write, edit, cd, rm, one, two] = mined.records;
  assert.deepEqual(write.expects, [{
    kind: "content",
    path: "/repo/a.txt",
    sha256: "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
    lfSha256: "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
    bytes: 6,
  }]);
  assert.deepEqual(edit.expects, [{ kind: "contains", path: "/repo/a.txt", texts: ["hi"] }]);
  assert.deepEqual(cd.expects, [{ kind: "directory", path: "/repo/sub" }]);
  assert.deepEqual(rm.expects, [{ kind: "absent", path: resolve("/repo/sub", "gone.txt") }]);
  assert.deepEqual([one.action, one.outcome], ["todo: one", "todo-completed"]);
  assert.deepEqual([two.action, two.outcome], ["todo: two", "todo-in-progress"]);
});

Deno.test("mineWork leaves subagent traffic out", () => {
  const b = new TranscriptBuilder({ cwd: "/repo" }).prompt("go");
  b.raw(JSON.stringify({
    type: "assistant",
    isSidechain: true,
    cwd: "/repo",
    message: {
      role: "assistant",
      content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }],
    },
  }));
  const { path } = tempTranscript(b);
  assert.deepEqual(mineWork(path).records, []);
});

Deno.test("mineWork fails on a corrupt line with its number, and takes a half-written end as a crash", () => {
  const b = new TranscriptBuilder({ cwd: "/repo" }).prompt("go").raw("{not json").tool(
    "Bash",
    { command: "make" },
    "ok",
  );
  const { path } = tempTranscript(b);
  assert.throws(() => mineWork(path), (error) => {
    assert.ok(error instanceof TranscriptError);
    assert.equal(error.line, 2);
    assert.match(error.reason ?? "", /JSON/);
    return true;
  });
  const crashed = new TranscriptBuilder({ cwd: "/repo" }).prompt("go").tool("Bash", {
    command: "make",
  }, "ok");
  const cut = tempTranscript(crashed, '{"type":"user","mess');
  const mined = mineWork(cut.path);
  assert.equal(mined.truncated, true);
  assert.equal(mined.records.length, 1);
});

Deno.test("pushedRefs reads git push's report: updates, forced updates, new branches; not tags", () => {
  const report = [
    "To github.com:me/app.git",
    "   1a2b3c4..5d6e7f8  main -> main",
    " + 0123456...789abcd feature -> feature (forced update)",
    " * [new branch]      topic -> topic",
    " * [new tag]         v1 -> v1",
    " ! [rejected]        old -> old (non-fast-forward)",
  ].join("\n");
  assert.deepEqual(pushedRefs(report), [
    { ref: "main", sha: "5d6e7f8" },
    { ref: "feature", sha: "789abcd" },
    { ref: "topic", sha: undefined },
  ]);
});

Deno.test("mineWork: an oversized half-written end is a crash too; an oversized whole line is a parse failure", () => {
  const b = new TranscriptBuilder({ cwd: "/repo" }).prompt("go").tool(
    "Bash",
    { command: "make" },
    "ok",
  );
  const big = `{"type":"user","message":{"content":"${"x".repeat(2048)}`;
  const cut = tempTranscript(b, big);
  const scan = { chunkSize: 256, maxLineBytes: 1536, oversizedPrefix: 64 };
  assert.equal(mineWork(cut.path, { scan }).truncated, true);
  const whole = tempTranscript(b, `${big}"}}\n`);
  assert.throws(() => mineWork(whole.path, { scan }), /line 4 is too long to read/);
});
