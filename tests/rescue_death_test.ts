import assert from "node:assert/strict";
import { join } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { buildRescueWorld, work } from "../fixtures/rescue/world.ts";
import { checkDeath } from "../lib/transcript/death.ts";
import { scanDeadSessions } from "../lib/transcript/dead_scan.ts";
import { createTestContext } from "./helpers/test_context.ts";

const CWD = "/home/alice/src/app";
const START = new Date("2026-11-30T08:00:00Z");

function withFile(content: string | Uint8Array, body: (path: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-death-" });
  try {
    const path = join(dir, "s.jsonl");
    if (typeof content === "string") Deno.writeTextFileSync(path, content);
    else Deno.writeFileSync(path, content);
    body(path);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

const session = () => work(CWD, "/home/alice", START);

Deno.test("checkDeath: an overflow error with only prompts and metadata after it is death", () => {
  const b = session().prompt("go on").apiError("Prompt is too long").prompt("continue")
    .apiError("Prompt is too long").metadata({ lastPrompt: "continue", aiTitle: "OAuth" });
  withFile(b.toString(), (path) => {
    const check = checkDeath(path);
    assert.equal(check.verdict, "dead");
    assert.equal(check.signal, "prompt-too-long");
    assert.equal(check.lastTimestamp, new Date(b.now.getTime() - 1000).toISOString());
    assert.equal(check.cwd, CWD);
    assert.equal(check.gitBranch, "feature/oauth");
    assert.equal(check.aiTitle, "OAuth");
  });
});

Deno.test("checkDeath: a session that compacted after the error and went on is alive", () => {
  const b = session().apiError("Prompt is too long").compact("Summary: done so far")
    .prompt("next").text("Done with the next step.").turnEnd();
  withFile(b.toString(), (path) => assert.equal(checkDeath(path).verdict, "alive"));
  // Compaction alone, with nothing after it, is still a successful compaction.
  const c = session().apiError("Prompt is too long").compact("Summary: done so far");
  withFile(c.toString(), (path) => assert.equal(checkDeath(path).verdict, "alive"));
});

Deno.test("checkDeath: an error mid-file followed by a reply or a tool result is alive", () => {
  const reply = session().apiError("Prompt is too long").prompt("smaller").text("Here it is.");
  withFile(reply.toString(), (path) => assert.equal(checkDeath(path).verdict, "alive"));
  const tool = session().apiError("Prompt is too long").prompt("smaller")
    .toolUse("Bash", { command: "ls" });
  tool.toolResult(tool.lastToolUseId, "a b c");
  withFile(tool.toString(), (path) => assert.equal(checkDeath(path).verdict, "alive"));
});

Deno.test("checkDeath: a failed /compact (system line) and Conversation too long are death", () => {
  const failed = session().system("local_command", {
    content: "<local-command-stderr>Error: Error during compaction: Error: Conversation too long." +
      "</local-command-stderr>",
  });
  withFile(failed.toString(), (path) => {
    assert.deepEqual([checkDeath(path).verdict, checkDeath(path).signal], [
      "dead",
      "compaction-error",
    ]);
  });
  const raw = session().apiError(
    'API Error: 400 {"type":"error","error":{"type":"invalid_request_error",' +
      '"message":"prompt is too long: 210394 tokens > 200000 maximum"}}',
  );
  withFile(raw.toString(), (path) => assert.equal(checkDeath(path).signal, "prompt-too-long"));
  // Leaving with /exit after the error does not bring the session back.
  const exited = session().apiError("Prompt is too long")
    .prompt("<command-name>/exit</command-name>\n<command-message>exit</command-message>")
    .system("local_command", { content: "<local-command-stdout>Bye!</local-command-stdout>" });
  withFile(exited.toString(), (path) => assert.equal(checkDeath(path).verdict, "dead"));
  const api = session().apiError("Conversation too long");
  withFile(
    api.toString(),
    (path) => assert.equal(checkDeath(path).signal, "conversation-too-long"),
  );
});

Deno.test("checkDeath: the words typed by a user or written by the model are not a signal", () => {
  const quoted = session().prompt("Why did it say Prompt is too long?")
    .text("Prompt is too long means the context overflowed.");
  withFile(quoted.toString(), (path) => assert.equal(checkDeath(path).verdict, "alive"));
  const typed = session().prompt("Prompt is too long").metadata({ lastPrompt: "x" });
  withFile(typed.toString(), (path) => assert.equal(checkDeath(path).verdict, "alive"));
  // Another API error (not logged in) is neither death nor progress.
  const auth = session().apiError("Not logged in · Please run /login");
  withFile(auth.toString(), (path) => assert.equal(checkDeath(path).verdict, "alive"));
});

Deno.test("checkDeath: the error must be within the last 20 conversation lines", () => {
  const b = session().apiError("Prompt is too long");
  for (let i = 0; i < 25; i++) b.prompt(`retry ${i}`);
  withFile(b.toString(), (path) => {
    assert.equal(checkDeath(path).verdict, "alive");
    assert.equal(checkDeath(path, { lines: 30 }).verdict, "dead");
  });
});

Deno.test("checkDeath: a window without a decision grows until it finds one", () => {
  const b = session().apiError("Prompt is too long").prompt("x".repeat(200_000));
  withFile(b.toString(), (path) => assert.equal(checkDeath(path).verdict, "dead"));
});

Deno.test("checkDeath: half-written last line, corrupt lines, non-UTF-8 bytes: read with a note", () => {
  const b = session().apiError("Prompt is too long").raw('{"type":"user","message":{"ro');
  withFile(b.toString().replace(/\n$/, ""), (path) => {
    const check = checkDeath(path);
    assert.equal(check.verdict, "dead");
    assert.deepEqual(check.notes, ["last line half-written"]);
  });
  const text = session().apiError("Prompt is too long").toString();
  const bytes = new TextEncoder().encode(text.replace("add OAuth", "add \u0000OAuth"));
  const broken = new Uint8Array([...bytes.subarray(0, 200), 0xff, 0xfe, ...bytes.subarray(200)]);
  withFile(broken, (path) => assert.equal(checkDeath(path).verdict, "dead"));
  withFile(`${text}not json at all\n`, (path) => {
    const check = checkDeath(path);
    assert.equal(check.verdict, "dead");
    assert.deepEqual(check.notes, ["a line near the end is not JSON"]);
  });
});

Deno.test("checkDeath: empty and huge single-line transcripts are not judged dead", () => {
  withFile("", (path) => assert.equal(checkDeath(path).verdict, "alive"));
  const huge = JSON.stringify({ type: "user", message: { content: "y".repeat(300_000) } });
  withFile(huge, (path) => {
    const check = checkDeath(path, { window: 16 * 1024, maxWindow: 64 * 1024 });
    assert.equal(check.verdict, "unknown");
    assert.match(check.notes.join(), /no complete line/);
  });
});

Deno.test("checkDeath: a file of sidechain lines is a subagent", () => {
  const b = new TranscriptBuilder({ cwd: CWD, start: START }).text("sub work", {
    isSidechain: true,
  })
    .text("more sub work", { isSidechain: true });
  withFile(b.toString(), (path) => assert.equal(checkDeath(path).verdict, "subagent"));
});

Deno.test("scanDeadSessions: only recent, big enough, top-level, dead transcripts", () => {
  const now = new Date("2026-11-30T12:00:00Z");
  const t = createTestContext({ now });
  try {
    const w = buildRescueWorld(t.home, now);
    const scan = scanDeadSessions(t.ctx.paths.projectsDir, { now, days: 7 });
    assert.deepEqual(scan.dead.map((d) => d.id), [
      w.ids.dead,
      w.ids.compactionError,
      w.ids.recovered,
    ]);
    const [dead] = scan.dead;
    assert.equal(dead.slug, "linked-watching-lovelace");
    assert.equal(dead.cwd, w.repo);
    assert.equal(dead.path, w.files.dead);
    assert.equal(dead.signal, "prompt-too-long");
    assert.equal(scan.dead[1].signal, "compaction-error");
    assert.equal(scan.dead[1].title, "Quarterly report draft");
    // dead, compactionError, compacted, midFile, recovered: old and small are filtered
    // by age and size, subagent files are never looked at.
    assert.equal(scan.examined, 5);
    assert.deepEqual(scan.skipped, []);
    const wider = scanDeadSessions(t.ctx.paths.projectsDir, { now, days: 31 });
    assert.ok(wider.dead.some((d) => d.id === w.ids.old));
    const one = scanDeadSessions(t.ctx.paths.projectsDir, { now, days: 1, session: w.ids.old });
    assert.deepEqual(one.dead.map((d) => d.id), [w.ids.old]);
    const small = scanDeadSessions(t.ctx.paths.projectsDir, { now, days: 1, session: w.ids.small });
    assert.deepEqual(small.dead.map((d) => d.id), [w.ids.small]);
  } finally {
    t.cleanup();
  }
});

Deno.test("scanDeadSessions: a missing projects dir is an empty scan", () => {
  const scan = scanDeadSessions("/nonexistent/claudecm/projects", { now: START, days: 7 });
  assert.deepEqual(scan, { dead: [], examined: 0, skipped: [] });
});

Deno.test("checkDeath on the reference transcript: compacted after the error, so alive", () => {
  const example = new URL("../fixtures/transcripts/example-session.jsonl", import.meta.url);
  const text = Deno.readTextFileSync(example);
  withFile(text, (path) => assert.equal(checkDeath(path).verdict, "alive"));
  // The same session cut where it hit the limit (line 24) and closed (line 25) is dead.
  const cut = text.split("\n").slice(0, 25).join("\n") + "\n";
  withFile(cut, (path) => {
    const check = checkDeath(path);
    assert.equal(check.verdict, "dead");
    assert.equal(check.lastTimestamp, "2026-11-28T21:16:51.895Z");
  });
});
