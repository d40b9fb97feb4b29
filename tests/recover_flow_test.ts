import assert from "node:assert/strict";
import { runRecover } from "../lib/app/recover/recover.ts";
import { locateSession } from "../lib/app/recall/source.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { finishedSession, keyDirOf, makeFolder, save } from "./helpers/projects.ts";
import { createTestContext, type TestContextOptions } from "./helpers/test_context.ts";

const NOW = new Date("2026-11-30T12:00:00Z");

function setup(options: TestContextOptions) {
  const t = createTestContext({ now: NOW, ...options });
  const cwd = makeFolder(t.home, "work/site");
  t.ctx.cwd = () => cwd;
  const dir = keyDirOf(t.ctx, cwd);
  const recent = new TranscriptBuilder({ cwd, start: new Date("2026-11-30T11:00:00Z") })
    .metadata({ aiTitle: "Recent work" })
    .prompt("migrate the database")
    .tool("Bash", { command: "npm run migrate" }, "migrated 3")
    .text("Migration done; next: update the seed data.");
  const earlier = finishedSession({
    cwd,
    title: "Earlier work",
    start: new Date("2026-11-29T09:00:00Z"),
  });
  save(dir, recent);
  save(dir, earlier);
  return { t, recent, earlier };
}

Deno.test("recover in a terminal: Enter takes the auto-pick and prints its digest", () => {
  const { t, recent } = setup({ answers: [""], interactive: true });
  try {
    assert.equal(runRecover(t.ctx, {}), 0);
    const out = t.stdout();
    assert.match(out, /Most recent session in this folder:\n {2}1\) Recent work/);
    assert.match(out, /Alternates:\n {2}2\) Earlier work/);
    assert.deepEqual(t.questions, ["Recover session 1? [Y/n or 1-2]: "]);
    assert.match(out, /## Last assistant message\nMigration done; next: update the seed data\./);
    assert.ok(out.endsWith(`claude --resume ${recent.sessionId}\n`));
  } finally {
    t.cleanup();
  }
});

Deno.test("recover in a terminal: a number picks an alternate, after a wrong answer", () => {
  const { t, earlier } = setup({ answers: ["maybe", "2"], interactive: true });
  try {
    assert.equal(runRecover(t.ctx, {}), 0);
    assert.equal(t.questions.length, 2);
    assert.match(t.stdout(), /Answer y, n or 1-2\./);
    assert.ok(t.stdout().endsWith(`claude --resume ${earlier.sessionId}\n`));
  } finally {
    t.cleanup();
  }
});

Deno.test("recover in a terminal: n or end of input recovers nothing", () => {
  for (const answers of [["n"], []]) {
    const { t } = setup({ answers, interactive: true });
    try {
      assert.equal(runRecover(t.ctx, {}), 0);
      assert.match(t.stdout(), /Nothing recovered\.\n$/);
      assert.ok(!t.stdout().includes("claude --resume"));
    } finally {
      t.cleanup();
    }
  }
});

Deno.test("recover --json never prompts, even in a terminal", () => {
  const { t } = setup({ answers: [], interactive: true });
  try {
    assert.equal(runRecover(t.ctx, { json: true }), 0);
    assert.deepEqual(t.questions, []);
    assert.equal(JSON.parse(t.stdout()).candidates.length, 2);
  } finally {
    t.cleanup();
  }
});

Deno.test("recover offers only this folder's sessions, not another folder's that shares its key", async () => {
  const t = createTestContext({ interactive: false });
  try {
    const dashed = makeFolder(t.home, "x/a-b");
    const dotted = makeFolder(t.home, "x/a.b");
    const key = keyDirOf(t.ctx, dashed);
    assert.equal(keyDirOf(t.ctx, dotted), key, "the two folders share one project key");
    const mine = finishedSession({ cwd: dashed, start: new Date("2026-11-20T10:00:00Z") });
    const theirs = finishedSession({ cwd: dotted, start: new Date("2026-11-28T10:00:00Z") });
    save(key, mine);
    save(key, theirs);
    t.ctx.cwd = () => dashed;
    assert.equal(await runRecover(t.ctx, { json: true }), 0);
    const json = JSON.parse(t.stdout());
    assert.deepEqual(json.candidates.map((c: { id: string }) => c.id), [mine.sessionId]);
    assert.deepEqual(json.excluded, [{ id: theirs.sessionId, reason: "other-folder" }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a session id typed in upper case names the same session for recover, recall and skeleton", async () => {
  const t = createTestContext({ interactive: false });
  try {
    const cwd = makeFolder(t.home, "src/upper");
    const session = finishedSession({ cwd });
    save(keyDirOf(t.ctx, cwd), session);
    t.ctx.cwd = () => cwd;
    const upper = session.sessionId.toUpperCase();
    assert.equal(await runRecover(t.ctx, { session: upper, digest: true }), 0);
    assert.match(t.stdout(), new RegExp(`claude --resume ${session.sessionId}`));
    assert.equal(locateSession(t.ctx, upper, cwd).sessionId, session.sessionId);
  } finally {
    t.cleanup();
  }
});
