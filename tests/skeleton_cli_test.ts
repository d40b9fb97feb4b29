import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { writeRegistryText } from "./helpers/claude_home.ts";
import { finishedSession, keyDirOf, makeFolder, save } from "./helpers/projects.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { treeState } from "./helpers/tree_state.ts";
import { symlinkIfSupported } from "./helpers/portable.ts";

/** A registered session whose transcript sits in another folder's project dir. */
function world() {
  const t = createTestContext();
  const cwd = makeFolder(t.home, "src/it's a ünïcode app");
  const elsewhere = makeFolder(t.home, "elsewhere");
  const session = finishedSession({ cwd, title: "Parser work" });
  save(keyDirOf(t.ctx, elsewhere), session);
  writeRegistryText(t.ctx.paths, `${session.sessionId}|${cwd}|Refactor The Parser|1200\n`);
  const out = join(t.home, "out dir");
  return { t, cwd, session, out };
}

Deno.test("skeleton <guid> finds the transcript in any project folder, titles it with the DESC, writes only its two files", async () => {
  const w = world();
  try {
    const before = treeState(w.t.home);
    const run = await runClaudecm(["skeleton", w.session.sessionId, "--out", w.out], {
      env: w.t.env,
      cwd: w.cwd,
    });
    assert.equal(run.code, 0, run.stderr);
    const skeleton = join(w.out, `${w.session.sessionId}-skeleton.md`);
    const transcript = join(w.out, `${w.session.sessionId}-transcript.md`);
    assert.match(run.stdout, new RegExp(`${w.session.sessionId}-skeleton\\.md \\(\\d+ B\\)`));
    assert.match(Deno.readTextFileSync(skeleton), /^# Session Refresh: Refactor The Parser\n/);
    assert.match(Deno.readTextFileSync(transcript), /\*\*Tool: Bash: Run tests\*\*/);
    const after = treeState(w.t.home).filter((line) => !line.startsWith("/out dir"));
    assert.deepEqual(after, before, "nothing but the two files (and their folder) is written");
    assert.deepEqual([...Deno.readDirSync(w.out)].map((e) => e.name).sort(), [
      `${w.session.sessionId}-skeleton.md`,
      `${w.session.sessionId}-transcript.md`,
    ]);
  } finally {
    w.t.cleanup();
  }
});

Deno.test("skeleton <path> with --desc writes to the current folder", async () => {
  const w = world();
  try {
    const path = save(keyDirOf(w.t.ctx, w.cwd), new TranscriptBuilder({ cwd: w.cwd }).prompt("hi"));
    const run = await runClaudecm(["skeleton", path, "--desc", "Mine"], {
      env: w.t.env,
      cwd: w.cwd,
    });
    assert.equal(run.code, 0, run.stderr);
    const id = basename(path, ".jsonl");
    assert.match(
      Deno.readTextFileSync(join(w.cwd, `${id}-skeleton.md`)),
      /^# Session Refresh: Mine/,
    );
  } finally {
    w.t.cleanup();
  }
});

Deno.test("skeleton refuses an unknown session (exit 3) and a transcript with no conversation (exit 1), writing nothing", async () => {
  const w = world();
  try {
    const unknown = await runClaudecm(["skeleton", "00000000-0000-4000-8000-000000000000"], {
      env: w.t.env,
      cwd: w.cwd,
    });
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /^claudecm: no transcript for session 00000000-/);
    const missing = await runClaudecm(["skeleton", "no/such.jsonl"], { env: w.t.env, cwd: w.cwd });
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /not a session id or a transcript file: no\/such\.jsonl/);
    // A path that cannot be looked at (a symlink loop here; permission denied for a user)
    // is a failure to read, not "not found" (DESIGN.md 5.11).
    if (symlinkIfSupported("loop.jsonl", join(w.cwd, "loop.jsonl"))) {
      const loop = await runClaudecm(["skeleton", "loop.jsonl"], { env: w.t.env, cwd: w.cwd });
      assert.equal(loop.code, 1, loop.stderr);
      assert.match(loop.stderr, /^claudecm: cannot read loop\.jsonl: /);
    }
    const empty = save(
      keyDirOf(w.t.ctx, w.cwd),
      new TranscriptBuilder({ cwd: w.cwd }).metadata({ customTitle: "nothing said" }),
    );
    const run = await runClaudecm(["skeleton", empty, "--out", w.out], {
      env: w.t.env,
      cwd: w.cwd,
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /has no user or assistant messages/);
    assert.equal(run.stderr.trim().split("\n").length, 1, "one line, no stack trace");
    assert.deepEqual([...Deno.readDirSync(w.out)], [], "no half-written files left behind");
  } finally {
    w.t.cleanup();
  }
});
