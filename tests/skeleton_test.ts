import assert from "node:assert/strict";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { collectSkeleton, SkeletonError } from "../lib/transcript/skeleton.ts";
import { renderSkeleton } from "../lib/transcript/skeleton_render.ts";

const CWD = "/home/alice/src/app";

function collect(
  builder: TranscriptBuilder,
): { data: ReturnType<typeof collectSkeleton>; transcript: string } {
  const dir = Deno.makeTempDirSync();
  try {
    const path = builder.write(`${dir}/${builder.sessionId}.jsonl`);
    let transcript = "";
    const data = collectSkeleton(path, { onTranscript: (text) => transcript += text });
    return { data, transcript };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("the original intent skips command wrappers, reminders, task notifications and preambles", () => {
  const b = new TranscriptBuilder({ cwd: CWD })
    .prompt("<command-name>/model</command-name>\n<command-args>opus</command-args>")
    .prompt("<command-name>/review</command-name>\n<command-args>PR 12</command-args>")
    .prompt("<task-notification>background task 3 finished</task-notification>")
    .prompt("This session is being continued from a previous conversation that ran out of context.")
    .prompt("<system-reminder>be brief</system-reminder>")
    .prompt("Make the parser stream its input", { isMeta: false })
    .text("On it.");
  assert.deepEqual(collect(b).data.intent, "Make the parser stream its input");
});

Deno.test("files modified carry their tools; files read exclude modified ones; paths are relative", () => {
  const b = new TranscriptBuilder({ cwd: CWD })
    .prompt("go")
    .tool("Read", { file_path: `${CWD}/src/a.ts` }, "1 line")
    .tool("Read", { file_path: `${CWD}/src/b.ts` }, "1 line")
    .tool("Edit", { file_path: `${CWD}/src/a.ts`, old_string: "x", new_string: "y" }, "ok")
    .tool("Write", { file_path: `${CWD}/src/a.ts`, content: "z" }, "ok")
    .tool("Write", { file_path: "/etc/elsewhere.conf", content: "z" }, "ok");
  const { data } = collect(b);
  assert.deepEqual([...data.modified].map(([f, t]) => [f, [...t]]), [
    ["src/a.ts", ["Edit", "Write"]],
    ["/etc/elsewhere.conf", ["Write"]],
  ]);
  assert.deepEqual(data.read, ["src/b.ts"]);
});

Deno.test("lines marked [important] are kept verbatim, from both sides, any case", () => {
  const b = new TranscriptBuilder({ cwd: CWD })
    .prompt("Fix it.\n[IMPORTANT] never touch the prod database\nthanks")
    .text("Noted.\n  [important] migrations run by hand only");
  assert.deepEqual(collect(b).data.important, [
    "[IMPORTANT] never touch the prod database",
    "  [important] migrations run by hand only",
  ]);
});

Deno.test("tool errors group by tool and target; repeats are flagged; denials are not errors", () => {
  const b = new TranscriptBuilder({ cwd: CWD }).prompt("go");
  b.toolUse("Bash", { command: "npm test", description: "Run tests" })
    .toolResult(b.lastToolUseId, "Exit code 1\n3 failed", { isError: true });
  b.toolUse("Bash", { command: "npm test", description: "Run tests" })
    .toolResult(b.lastToolUseId, "Exit code 1\n1 failed", { isError: true });
  b.toolUse("Edit", { file_path: `${CWD}/x.ts`, old_string: "a", new_string: "b" })
    .toolResult(
      b.lastToolUseId,
      "<tool_use_error>File has not been read yet.</tool_use_error>",
      { isError: true },
    );
  b.toolUse("Bash", { command: "rm -rf build" })
    .toolResult(
      b.lastToolUseId,
      "The user doesn't want to proceed with this tool use. The tool use was rejected.",
      { isError: true },
    );
  b.tool("Bash", { command: "ls" }, "fine");
  const { data } = collect(b);
  assert.deepEqual(data.errors, [
    { tool: "Bash", target: "Run tests", count: 2, lastMessage: "Exit code 1" },
    { tool: "Edit", target: "x.ts", count: 1, lastMessage: "File has not been read yet." },
  ]);
  const text = renderSkeleton(data, "App");
  assert.match(text, /## Errors Encountered \(3\)/);
  assert.match(text, /- Bash on Run tests \(2 times, potentially unresolved\): Exit code 1/);
  assert.ok(!text.includes("rm -rf"));
});

Deno.test("recent context keeps the last 10 turns, 400 characters each", () => {
  const b = new TranscriptBuilder({ cwd: CWD });
  for (let i = 1; i <= 8; i++) b.prompt(`ask ${i}`).text(`reply ${i} ${"x".repeat(600)}`);
  const { data } = collect(b);
  assert.deepEqual(data.recent.length, 10);
  assert.deepEqual(data.recent[0], { role: "user", text: "ask 4" });
  assert.deepEqual(data.recent[9].text.length, 400);
});

Deno.test("the filtered transcript has the conversation and one line per tool call, no output", () => {
  const b = new TranscriptBuilder({ cwd: CWD })
    .prompt("Look around")
    .text("Sure.")
    .tool("Bash", { command: "ls -la", description: "List files" }, "SECRET-OUTPUT")
    .tool("Grep", { pattern: "TODO", path: "src" }, "SECRET-OUTPUT")
    .tool("Read", { file_path: `${CWD}/a.ts` }, "SECRET-OUTPUT")
    .tool("mcp__github__create_issue", { title: "t" }, "SECRET-OUTPUT")
    .text("Done.")
    .text("side work", { isSidechain: true });
  const { transcript } = collect(b);
  assert.deepEqual(
    transcript,
    "## User\n\nLook around\n\n## Assistant\n\nSure.\n\n**Tool: Bash: List files**\n\n" +
      "**Tool: Grep: TODO in src**\n\n**Tool: Read: /home/alice/src/app/a.ts**\n\n" +
      "**Tool: mcp__github__create_issue**\n\nDone.\n\n",
  );
});

Deno.test("structural validation: no conversation, a call without an id or a path", () => {
  const empty = new TranscriptBuilder({ cwd: CWD }).metadata({ customTitle: "t" });
  assert.throws(
    () => collect(empty),
    (e) => e instanceof SkeletonError && e.message.includes("no user or assistant messages"),
  );
  const noId = new TranscriptBuilder({ cwd: CWD }).prompt("go")
    .raw(JSON.stringify({
      type: "assistant",
      message: { content: [{ type: "tool_use", name: "Bash", input: { command: "ls" } }] },
    }));
  assert.throws(
    () => collect(noId),
    (e) => e instanceof SkeletonError && e.message.includes("a Bash call has no id"),
  );
  const noPath = new TranscriptBuilder({ cwd: CWD }).prompt("go").toolUse("Edit", {
    old_string: "a",
  });
  assert.throws(
    () => collect(noPath),
    (e) => e instanceof SkeletonError && e.message.includes("a Edit call has no file path"),
  );
});

Deno.test("a half-written last line and corrupt lines do not stop the skeleton", () => {
  const b = new TranscriptBuilder({ cwd: CWD }).prompt("go").raw("{not json").text("ok");
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/s.jsonl`;
    Deno.writeTextFileSync(path, b.toString() + '{"type":"assistant","mess');
    const data = collectSkeleton(path);
    assert.deepEqual(data.report.corrupt, 1);
    assert.ok(data.report.truncated);
    assert.deepEqual(data.recent.map((t) => t.text), ["go", "ok"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
