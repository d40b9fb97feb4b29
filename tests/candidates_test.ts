import assert from "node:assert/strict";
import { join } from "node:path";
import { rankCandidates } from "../lib/transcript/candidates.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { finishedSession, save } from "./helpers/projects.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const CWD = "/home/alice/src/app";

function withDir(body: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-rank-" });
  try {
    body(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

const at = (iso: string) => new Date(iso);

Deno.test("rankCandidates orders by last timestamped line, not by mtime", () => {
  withDir((dir) => {
    const older = save(
      dir,
      finishedSession({ cwd: CWD, title: "older", start: at("2026-11-29T08:00:00Z") }),
    );
    const newer = save(
      dir,
      finishedSession({ cwd: CWD, title: "newer", start: at("2026-11-30T09:00:00Z") }),
    );
    // A copy or a restore makes the older file look newest on disk.
    Deno.utimeSync(older, at("2026-11-30T11:59:00Z"), at("2026-11-30T11:59:00Z"));
    Deno.utimeSync(newer, at("2026-11-01T00:00:00Z"), at("2026-11-01T00:00:00Z"));
    const { candidates } = rankCandidates(dir, { exclude: new Set(), now: NOW });
    assert.deepEqual(candidates.map((c) => c.title), ["newer", "older"]);
    assert.equal(candidates[0].lastActivity, "2026-11-30T09:00:04.000Z");
  });
});

Deno.test("rankCandidates leaves out the live session named by the caller", () => {
  withDir((dir) => {
    const live = finishedSession({ cwd: CWD, title: "live", start: at("2026-11-30T11:00:00Z") });
    save(dir, live);
    save(dir, finishedSession({ cwd: CWD, title: "crashed", start: at("2026-11-30T10:00:00Z") }));
    const ranking = rankCandidates(dir, { exclude: new Set([live.sessionId]), now: NOW });
    assert.deepEqual(ranking.candidates.map((c) => c.title), ["crashed"]);
    assert.deepEqual(ranking.excluded, [{ id: live.sessionId, reason: "requested" }]);
  });
});

Deno.test("rankCandidates drops a tail of fresh traffic from the last 60 s as live", () => {
  withDir((dir) => {
    const busy = new TranscriptBuilder({ cwd: CWD, start: at("2026-11-30T11:59:30Z") })
      .prompt("keep going").toolUse("Bash", { command: "sleep 100" });
    const idle = finishedSession({ cwd: CWD, title: "idle", start: at("2026-11-30T11:59:40Z") });
    const stale = new TranscriptBuilder({ cwd: CWD, start: at("2026-11-30T11:50:00Z") })
      .prompt("crashed mid-way").toolUse("Bash", { command: "npm test" });
    save(dir, busy);
    save(dir, idle);
    save(dir, stale);
    const ranking = rankCandidates(dir, { exclude: new Set(), now: NOW });
    assert.deepEqual(ranking.excluded, [{ id: busy.sessionId, reason: "live-tail" }]);
    assert.deepEqual(ranking.candidates.map((c) => c.id), [idle.sessionId, stale.sessionId]);
  });
});

Deno.test("rankCandidates ignores subagent dirs and reads titles, prompt, branch, size", () => {
  withDir((dir) => {
    const main = new TranscriptBuilder({
      cwd: CWD,
      gitBranch: "fix/login",
      start: at("2026-11-30T10:00:00Z"),
    })
      .metadata({ customTitle: "my title" })
      .prompt("fix the login bug")
      .text("Done.")
      .metadata({ lastPrompt: "fix the login bug", aiTitle: "Fix login" });
    save(dir, main);
    const sub = join(dir, main.sessionId, "subagents");
    Deno.mkdirSync(sub, { recursive: true });
    save(sub, finishedSession({ cwd: CWD, start: at("2026-11-30T11:00:00Z") }));
    const { candidates } = rankCandidates(dir, { exclude: new Set(), now: NOW });
    assert.equal(candidates.length, 1);
    const [candidate] = candidates;
    assert.equal(candidate.id, main.sessionId);
    assert.equal(candidate.title, "my title");
    assert.equal(candidate.lastPrompt, "fix the login bug");
    assert.equal(candidate.branch, "fix/login");
    assert.equal(candidate.size, main.toString().length);
    assert.equal(candidate.truncated, false);
  });
});

Deno.test("rankCandidates flags a half-written last line and keeps the candidate", () => {
  withDir((dir) => {
    const builder = finishedSession({ cwd: CWD, start: at("2026-11-30T10:00:00Z") });
    const path = join(dir, `${builder.sessionId}.jsonl`);
    Deno.writeTextFileSync(path, builder.toString() + '{"parentUuid":"x","type":"assist');
    const { candidates } = rankCandidates(dir, { exclude: new Set(), now: NOW });
    assert.equal(candidates[0].truncated, true);
    assert.equal(candidates[0].lastActivity, "2026-11-30T10:00:04.000Z");
  });
});

Deno.test("rankCandidates offers only UUID-named transcripts, not notes or old agent files", () => {
  withDir((dir) => {
    const real = save(
      dir,
      finishedSession({ cwd: CWD, title: "real", start: at("2026-11-30T08:00:00Z") }),
    );
    // Newer than the real session, so they would rank first if they counted.
    const newer = finishedSession({
      cwd: CWD,
      title: "imposter",
      start: at("2026-11-30T10:00:00Z"),
    });
    newer.write(join(dir, "notes.jsonl"));
    newer.write(join(dir, "agent-1f2e3d4c.jsonl"));
    newer.write(join(dir, `${crypto.randomUUID()}.jsonl.bak`));
    const { candidates } = rankCandidates(dir, { exclude: new Set(), now: NOW });
    assert.deepEqual(candidates.map((c) => c.path), [real]);
  });
});
