import assert from "node:assert/strict";
import { join } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { keyDirOf, makeFolder, save } from "./helpers/projects.ts";
import { git, mainScenario } from "./helpers/recall_world.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { treeState } from "./helpers/tree_state.ts";
import { gitTest, NAME_QUOTE, symlinkIfSupported } from "./helpers/portable.ts";

interface JsonRecord {
  id: string;
  action: string;
  outcome: string;
  status: string;
  divergence_note: string | null;
  kind: string;
}

/** Status of every record, keyed by a short label, for readable asserts. */
function statuses(records: JsonRecord[]): string[] {
  return records.map((r) => `${r.id} ${r.kind} ${r.status}`);
}

/** What git itself holds: every ref, HEAD, the index's mtime and size, the reflog. */
function gitState(home: string, repo: string): string[] {
  const index = Deno.statSync(join(repo, ".git", "index"));
  return [
    git(home, repo, "for-each-ref"),
    Deno.readTextFileSync(join(repo, ".git", "HEAD")),
    `${index.mtime?.getTime()} ${index.size}`,
    git(home, repo, "reflog", "--no-abbrev"),
  ];
}

gitTest(
  "recall --json: every record tagged, divergences found, one next move, nothing written",
  async () => {
    const t = createTestContext();
    try {
      const s = mainScenario(t);
      const home = treeState(t.home);
      const gitBefore = gitState(t.home, s.repo);
      const run = await runClaudecm(["recall", s.session.sessionId, "--json"], {
        env: t.env,
        cwd: s.repo,
      });
      assert.equal(run.code, 0, run.stderr);
      const capsule = JSON.parse(run.stdout);
      assert.deepEqual(Object.keys(capsule).slice(0, 5), [
        "status",
        "session_id",
        "records",
        "next_move",
        "divergences",
      ]);
      assert.equal(capsule.status, "ok");
      assert.equal(capsule.session_id, s.session.sessionId);
      assert.deepEqual(statuses(capsule.records), [
        "r1 read completed",
        "r2 write completed", // superseded by the edit r3, not diverged
        "r3 edit completed",
        "r4 write diverged", // src/config.ts changed after the session
        "r5 delete completed",
        "r6 commit completed",
        "r7 commit diverged", // reset away after the session
        "r8 test blocked",
        "r9 test blocked",
        "r10 command in-progress", // cut off: no result
        "r11 todo completed",
        "r12 todo in-progress",
        "r13 todo in-progress",
        "r14 branch completed",
      ]);
      const byId = Object.fromEntries(capsule.records.map((r: JsonRecord) => [r.id, r]));
      assert.equal(byId.r10.outcome, "no-result");
      assert.equal(byId.r8.outcome, "error");
      assert.match(
        byId.r4.divergence_note,
        /^expected sha256 \w+ \(26 bytes\), as written; found sha256/,
      );
      assert.match(
        byId.r7.divergence_note,
        new RegExp(`commit ${s.reset.slice(0, 7)} "add notes"`),
      );
      assert.match(byId.r7.divergence_note, /in no branch's history/);
      assert.equal(byId.r1.divergence_note, null);
      assert.deepEqual(
        capsule.divergences.map((
          d: { record: string; in_scope: boolean },
        ) => [d.record, d.in_scope]),
        [["r4", true], ["r7", true]],
      );
      assert.equal(capsule.next_move.record, "r10");
      assert.match(capsule.next_move.action, /^Run `npm run build` in .* again/);
      assert.deepEqual(capsule.branch, { recorded: "main", current: "main" });
      assert.deepEqual(treeState(t.home), home, "recall wrote under HOME (repo or ~/.claude)");
      assert.deepEqual(gitState(t.home, s.repo), gitBefore, "recall changed the git state");
    } finally {
      t.cleanup();
    }
  },
);

gitTest("recall prints a markdown capsule: next move, divergences, tagged records", async () => {
  const t = createTestContext();
  try {
    const s = mainScenario(t);
    const run = await runClaudecm(["recall", s.transcript], { env: t.env, cwd: t.home });
    assert.equal(run.code, 0, run.stderr);
    const text = run.stdout;
    assert.match(text, /^# Recall: add a greeting module and commit it$/m);
    assert.match(text, /^## Next move\n\nRun `npm run build` in /m);
    assert.match(text, /^## Divergences \(2\)$/m);
    assert.match(text, /^- \*\*r4\*\* Write .*config\.ts .*: expected sha256/m);
    assert.match(text, /^- r8 \[blocked\] test: npm test — error: Exit code 1/m);
    assert.match(text, /^- r10 \[in-progress\] command: npm run build — no-result/m);
    assert.match(text, /^- r14 \[completed\] work on branch main/m);
  } finally {
    t.cleanup();
  }
});

gitTest("recall --scope narrows the records but never the divergences", async () => {
  const t = createTestContext();
  try {
    const s = mainScenario(t);
    const file = await runClaudecm([
      "recall",
      s.session.sessionId,
      "--scope",
      "src/greet.ts",
      "--json",
    ], {
      env: t.env,
      cwd: s.repo,
    });
    assert.equal(file.code, 0, file.stderr);
    const capsule = JSON.parse(file.stdout);
    assert.deepEqual(statuses(capsule.records), ["r2 write completed", "r3 edit completed"]);
    assert.deepEqual(
      capsule.divergences.map((d: { record: string; in_scope: boolean }) => [d.record, d.in_scope]),
      [["r4", false], ["r7", false]],
    );
    assert.equal(capsule.records_total, 14);

    const tag = await runClaudecm(["recall", s.session.sessionId, "--scope", "test", "--json"], {
      env: t.env,
      cwd: s.repo,
    });
    const tests = JSON.parse(tag.stdout);
    assert.deepEqual(statuses(tests.records), ["r8 test blocked", "r9 test blocked"]);
    assert.equal(tests.next_move.record, "r9");
    assert.match(
      tests.next_move.action,
      /^Find out why `npm test` keeps failing \(last error: Exit code 1/,
    );

    const module = await runClaudecm(["recall", s.session.sessionId, "--scope", "src", "--json"], {
      env: t.env,
      cwd: s.repo,
    });
    assert.deepEqual(
      JSON.parse(module.stdout).records.map((r: JsonRecord) => r.id),
      ["r2", "r3", "r4"],
    );
  } finally {
    t.cleanup();
  }
});

gitTest("recall --last picks the newest session that is not live and says so", async () => {
  const t = createTestContext();
  try {
    const s = mainScenario(t);
    const live = new TranscriptBuilder({ cwd: s.repo, start: new Date(Date.now() - 5_000) })
      .prompt("what next?")
      .tool("Read", { file_path: join(s.repo, "README.md") }, "# app");
    save(s.projectDir, live);
    const env = { ...t.env, CLAUDE_CODE_SESSION_ID: live.sessionId };
    const run = await runClaudecm(["recall", "--last"], { env, cwd: s.repo });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`--last picked session ${s.session.sessionId}`));
    assert.match(run.stdout, /Picked with --last: the newest session here that is not live/);
    const json = await runClaudecm(["recall", "--last", "--json"], { env, cwd: s.repo });
    const capsule = JSON.parse(json.stdout);
    assert.equal(capsule.session_id, s.session.sessionId);
    assert.equal(capsule.found_by, "last");
    assert.deepEqual(capsule.picked.excluded, [live.sessionId]);
  } finally {
    t.cleanup();
  }
});

gitTest("recall finds a session by its folder and by id from another folder", async () => {
  const t = createTestContext();
  try {
    const s = mainScenario(t);
    const dir = join(s.projectDir, s.session.sessionId);
    Deno.mkdirSync(join(dir, "subagents"), { recursive: true });
    const byDir = await runClaudecm(["recall", dir, "--json"], { env: t.env, cwd: t.home });
    assert.equal(byDir.code, 0, byDir.stderr);
    assert.equal(JSON.parse(byDir.stdout).found_by, "session-dir");
    const byId = await runClaudecm(["recall", s.session.sessionId, "--json"], {
      env: t.env,
      cwd: t.home,
    });
    assert.equal(JSON.parse(byId.stdout).transcript, s.transcript);
  } finally {
    t.cleanup();
  }
});

Deno.test("session-not-found: exit 3 with the identifier, for an unknown id, a bad name, --last with none", async () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "empty");
    const unknown = "0f0f0f0f-0000-4000-8000-000000000000";
    for (
      const [args, identifier] of [
        [["recall", unknown, "--json"], unknown],
        [["recall", "no-such-thing", "--json"], "no-such-thing"],
        [["recall", "--last", "--json"], `--last ${cwd}`],
      ] as const
    ) {
      const before = treeState(t.home);
      const run = await runClaudecm([...args], { env: t.env, cwd });
      assert.equal(run.code, 3, `${args.join(" ")}: ${run.stderr}`);
      const body = JSON.parse(run.stdout);
      assert.equal(body.status, "session-not-found");
      assert.equal(body.exitCode, 3, "every --json failure carries its exit code");
      assert.equal(body.identifier, identifier);
      assert.match(run.stderr, /^claudecm: /);
      assert.deepEqual(treeState(t.home), before);
    }
    const plain = await runClaudecm(["recall", unknown], { env: t.env, cwd });
    assert.equal(plain.code, 3);
    assert.equal(plain.stdout, "");
    assert.match(
      plain.stderr,
      new RegExp(`^claudecm: no transcript for session ${unknown} under `),
    );
    // A path that cannot be looked at (a symlink loop here; permission denied for a user)
    // is a failure to read, not session-not-found (DESIGN.md 5.11).
    if (!symlinkIfSupported("loop.jsonl", join(cwd, "loop.jsonl"))) return;
    const loop = await runClaudecm(["recall", "loop.jsonl"], { env: t.env, cwd });
    assert.equal(loop.code, 1, loop.stderr);
    assert.match(loop.stderr, /^claudecm: cannot read .*loop\.jsonl: /);
  } finally {
    t.cleanup();
  }
});

Deno.test("transcript-parse-failure: exit 4 with the line and the parser's error, no partial capsule", async () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "proj");
    const builder = new TranscriptBuilder({ cwd })
      .prompt("fix it")
      .tool("Bash", { command: "make" }, "ok")
      .raw('{"type":"user","message": {oops')
      .tool("Bash", { command: "make test" }, "ok");
    const path = save(keyDirOf(t.ctx, cwd), builder);
    const run = await runClaudecm(["recall", builder.sessionId, "--json"], { env: t.env, cwd });
    assert.equal(run.code, 4, run.stderr);
    const body = JSON.parse(run.stdout);
    assert.equal(body.status, "transcript-parse-failure");
    assert.equal(body.line, 4);
    assert.equal(body.transcript, path);
    assert.match(body.error, /JSON/);
    assert.equal(body.records, undefined);
    const plain = await runClaudecm(["recall", builder.sessionId], { env: t.env, cwd });
    assert.equal(plain.code, 4);
    assert.equal(plain.stdout, "");
    assert.match(plain.stderr, /^claudecm: cannot parse .*: line 4: /);
  } finally {
    t.cleanup();
  }
});

Deno.test("a half-written final line is a crash, not a parse failure: the last record is in-progress", async () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "proj");
    const builder = new TranscriptBuilder({ cwd, gitBranch: "" })
      .prompt("build it")
      .tool("Bash", { command: "make" }, "built");
    const path = join(keyDirOf(t.ctx, cwd), `${builder.sessionId}.jsonl`);
    Deno.writeTextFileSync(path, builder.toString() + '{"parentUuid":"x","type":"assis');
    const run = await runClaudecm(["recall", builder.sessionId, "--json"], { env: t.env, cwd });
    assert.equal(run.code, 0, run.stderr);
    const capsule = JSON.parse(run.stdout);
    assert.equal(capsule.truncated, true);
    assert.deepEqual(statuses(capsule.records), ["r1 command in-progress"]);
    assert.match(capsule.next_move.action, /^Run `make` in .* again/);
  } finally {
    t.cleanup();
  }
});

gitTest(
  "no-recoverable-state: exit 5 for a session with no work, and for a scope nothing matches",
  async () => {
    const t = createTestContext();
    try {
      const cwd = makeFolder(t.home, "proj");
      const talk = new TranscriptBuilder({ cwd }).prompt("hi").text("Hello! What shall we do?")
        .turnEnd();
      save(keyDirOf(t.ctx, cwd), talk);
      const run = await runClaudecm(["recall", talk.sessionId, "--json"], { env: t.env, cwd });
      assert.equal(run.code, 5, run.stderr);
      const body = JSON.parse(run.stdout);
      assert.equal(body.status, "no-recoverable-state");
      assert.equal(body.session_id, talk.sessionId);

      const s = mainScenario(t);
      const scoped = await runClaudecm(["recall", s.session.sessionId, "--scope", "nowhere.rs"], {
        env: t.env,
        cwd: s.repo,
      });
      assert.equal(scoped.code, 5);
      assert.match(scoped.stderr, /matches --scope "nowhere\.rs"/);
    } finally {
      t.cleanup();
    }
  },
);

gitTest("recall says clearly when git is missing and exits 1", async () => {
  const t = createTestContext();
  try {
    const s = mainScenario(t);
    const empty = Deno.makeTempDirSync({ dir: t.home });
    const run = await runClaudecm(["recall", s.session.sessionId], {
      env: { ...t.env, PATH: empty },
      cwd: s.repo,
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^claudecm: git not found \(git\): recall needs git/);
  } finally {
    t.cleanup();
  }
});

Deno.test("recall usage errors: no session, or a session and --last", async () => {
  const t = createTestContext();
  try {
    const none = await runClaudecm(["recall"], { env: t.env, cwd: t.home });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /name the session to recall/);
    const both = await runClaudecm(["recall", "x", "--last"], { env: t.env, cwd: t.home });
    assert.equal(both.code, 2);
    const help = await runClaudecm(["recall", "--help"], { env: t.env, cwd: t.home });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /3 session-not-found, 4 transcript-parse-failure/);
    assert.match(help.stdout, /5 no-recoverable-state/);
  } finally {
    t.cleanup();
  }
});

gitTest("recall in a 200+ character folder with spaces, quotes and unicode", async () => {
  const t = createTestContext();
  try {
    const folder = `wörk space/it's ${NAME_QUOTE}quoted${NAME_QUOTE} ✓/${
      "long-segment-".repeat(16)
    }app`;
    const s = mainScenario(t, folder);
    assert.ok(s.repo.length > 200);
    const before = treeState(t.home);
    const run = await runClaudecm(["recall", "--last", "--json"], { env: t.env, cwd: s.repo });
    assert.equal(run.code, 0, run.stderr);
    const capsule = JSON.parse(run.stdout);
    assert.equal(capsule.session_id, s.session.sessionId);
    assert.equal(capsule.cwd, s.repo);
    assert.deepEqual(
      capsule.divergences.map((d: { record: string }) => d.record),
      ["r4", "r7"],
    );
    const scoped = await runClaudecm(
      ["recall", s.transcript, "--scope", "src/greet.ts", "--json"],
      {
        env: t.env,
        cwd: t.home,
      },
    );
    assert.deepEqual(JSON.parse(scoped.stdout).records.map((r: JsonRecord) => r.id), ["r2", "r3"]);
    assert.deepEqual(treeState(t.home), before);
  } finally {
    t.cleanup();
  }
});
