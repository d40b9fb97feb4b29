import assert from "node:assert/strict";
import { join } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { buildCapsule } from "../lib/app/recall/recall.ts";
import { renderCapsule } from "../lib/app/recall/render.ts";
import { createGitRunner, type GitRunner } from "../lib/app/recall/git.ts";
import { keyDirOf, makeFolder, save } from "./helpers/projects.ts";
import {
  commitAll,
  commitLine,
  git,
  mainScenario,
  makeRepo,
  writeFile,
} from "./helpers/recall_world.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { gitTest } from "./helpers/portable.ts";

/** The real git, with every query's subcommand noted. */
function recordingGit(): { run: GitRunner; asked: string[] } {
  const real = createGitRunner({ env: Deno.env.toObject(), os: Deno.build.os });
  const asked: string[] = [];
  return {
    asked,
    run: (dir, args) => {
      asked.push(args[0]);
      return real(dir, args);
    },
  };
}

const refuseGit: GitRunner = () => {
  throw new Error("git was run for a session that never used it");
};

gitTest(
  "a branch switched after the session diverges, and keeps git steps out of the next move",
  () => {
    const t = createTestContext();
    try {
      const repo = makeRepo(t.home, "app", { "a.txt": "a\n" });
      writeFile(repo, "a.txt", "b\n");
      const sha = commitAll(t.home, repo, "change a");
      const session = new TranscriptBuilder({ cwd: repo })
        .prompt("commit and push")
        .tool(
          "Bash",
          { command: "git commit -am 'change a'" },
          commitLine("main", sha, "change a"),
        );
      for (let i = 0; i < 2; i++) {
        session.toolUse("Bash", { command: "git push" });
        session.toolResult(session.lastToolUseId, "fatal: could not read Username", {
          isError: true,
        });
      }
      save(keyDirOf(t.ctx, repo), session);
      git(t.home, repo, "checkout", "-q", "-b", "other");
      const gitCalls = recordingGit();
      const capsule = buildCapsule(t.ctx, { session: session.sessionId, git: gitCalls.run });
      const status = Object.fromEntries(capsule.records.map((r) => [r.record.kind, r.status]));
      assert.deepEqual(status, { commit: "completed", push: "blocked", branch: "diverged" });
      const branch = capsule.records.find((r) => r.record.kind === "branch")!;
      assert.equal(branch.verification.expected, "branch main checked out");
      assert.equal(branch.verification.found, "other checked out");
      assert.equal(capsule.nextMove.record, `r${branch.record.seq}`);
      assert.match(capsule.nextMove.action, /^Resolve the divergence of r4 first/);
      const readOnly = new Set(["rev-parse", "branch", "cat-file", "merge-base", "for-each-ref"]);
      assert.ok(gitCalls.asked.length > 0);
      assert.deepEqual(gitCalls.asked.filter((sub) => !readOnly.has(sub)), []);
    } finally {
      t.cleanup();
    }
  },
);

gitTest("a commit found only on another branch diverges and names that branch", () => {
  const t = createTestContext();
  try {
    const repo = makeRepo(t.home, "app", { "a.txt": "a\n" });
    git(t.home, repo, "checkout", "-q", "-b", "topic");
    writeFile(repo, "a.txt", "b\n");
    const sha = commitAll(t.home, repo, "on topic");
    git(t.home, repo, "checkout", "-q", "main");
    const session = new TranscriptBuilder({ cwd: repo })
      .tool("Bash", { command: "git commit -am 'on topic'" }, commitLine("main", sha, "on topic"));
    save(keyDirOf(t.ctx, repo), session);
    const capsule = buildCapsule(t.ctx, { session: session.sessionId });
    const [commit] = capsule.records;
    assert.equal(commit.status, "diverged");
    assert.equal(commit.verification.found, "not in branch main; only in topic");
  } finally {
    t.cleanup();
  }
});

Deno.test("an interrupted write whose change is on disk is completed; one that is not is the next move", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "plain");
    const landed = writeFile(cwd, "landed.txt", "done\n");
    const lost = join(cwd, "lost.txt");
    const session = new TranscriptBuilder({ cwd, gitBranch: "" })
      .toolUse("Write", { file_path: landed, content: "done\n" });
    session.toolResult(session.lastToolUseId, "[Request interrupted by user for tool use]", {
      isError: true,
    }).toolUse("Write", { file_path: lost, content: "never\n" });
    save(keyDirOf(t.ctx, cwd), session);
    const capsule = buildCapsule(t.ctx, { session: session.sessionId, git: refuseGit });
    assert.deepEqual(capsule.records.map((r) => [r.status, r.reason]), [
      ["completed", "no result was recorded, but the change is on disk"],
      ["in-progress", "no result recorded: it was still running when the session stopped"],
    ]);
    assert.equal(capsule.nextMove.record, "r2");
    assert.match(capsule.nextMove.action, /^Redo Write .*lost\.txt .*the change is not on disk/);
  } finally {
    t.cleanup();
  }
});

Deno.test("an unfinished step on a file that diverged is not the next move", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "plain");
    const file = writeFile(cwd, "a.ts", "changed by hand\n");
    const session = new TranscriptBuilder({ cwd, gitBranch: "" })
      .tool("Write", { file_path: file, content: "written\n" }, "ok")
      .tool("TodoWrite", { todos: [{ content: "polish a.ts", status: "pending" }] }, "ok");
    for (let i = 0; i < 2; i++) {
      session.toolUse("Edit", { file_path: file, old_string: "x", new_string: "y" });
      session.toolResult(session.lastToolUseId, "String to replace not found", { isError: true });
    }
    save(keyDirOf(t.ctx, cwd), session);
    const capsule = buildCapsule(t.ctx, { session: session.sessionId, git: refuseGit });
    assert.deepEqual(capsule.records.map((r) => r.status), [
      "diverged",
      "blocked",
      "blocked",
      "in-progress",
    ]);
    assert.equal(capsule.nextMove.record, "r4", "the blocked edit waits for the divergence");
    assert.match(capsule.nextMove.action, /^Start the next pending todo: polish a\.ts/);
  } finally {
    t.cleanup();
  }
});

Deno.test("a written file that only differs in line endings is not a divergence", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "plain");
    const file = writeFile(cwd, "crlf.txt", "one\r\ntwo\r\n");
    const session = new TranscriptBuilder({ cwd, gitBranch: "" })
      .tool("Write", { file_path: file, content: "one\ntwo\n" }, "ok");
    save(keyDirOf(t.ctx, cwd), session);
    const capsule = buildCapsule(t.ctx, { session: session.sessionId, git: refuseGit });
    assert.equal(capsule.records[0].status, "completed");
    assert.equal(capsule.records[0].reason, "verified against the live state");
  } finally {
    t.cleanup();
  }
});

Deno.test("a step that failed and then succeeded is completed; a failed look-up leaves nothing to resume", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "plain");
    const session = new TranscriptBuilder({ cwd, gitBranch: "" }).toolUse("Bash", {
      command: "make",
    });
    session.toolResult(session.lastToolUseId, "Exit code 2", { isError: true })
      .tool("Bash", { command: "make" }, "ok")
      .toolUse("Read", { file_path: join(cwd, "missing.ts") });
    session.toolResult(session.lastToolUseId, "File does not exist.", { isError: true });
    save(keyDirOf(t.ctx, cwd), session);
    const capsule = buildCapsule(t.ctx, { session: session.sessionId, git: refuseGit });
    assert.deepEqual(capsule.records.map((r) => [r.status, r.reason]), [
      ["completed", "failed, then succeeded (r2)"],
      ["completed", "done"],
      ["completed", "the look-up failed; nothing to resume"],
    ]);
    assert.equal(capsule.nextMove.record, null);
    assert.match(capsule.nextMove.action, /^Nothing is left unfinished/);
  } finally {
    t.cleanup();
  }
});

gitTest("the recorded folder gone: the branch check diverges instead of guessing", () => {
  const t = createTestContext();
  try {
    const s = mainScenario(t);
    Deno.removeSync(s.repo, { recursive: true });
    const capsule = buildCapsule(t.ctx, { session: s.session.sessionId });
    const branch = capsule.records.at(-1)!;
    assert.equal(branch.status, "diverged");
    assert.match(branch.verification.found!, /no longer exists/);
    const commit = capsule.records.find((r) => r.record.kind === "commit")!;
    assert.equal(commit.status, "diverged");
  } finally {
    t.cleanup();
  }
});

Deno.test("a session open in a running claude is flagged live, so a cut-off end is not called a crash", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "plain");
    const session = new TranscriptBuilder({ cwd, gitBranch: "" }).toolUse("Bash", {
      command: "make",
    });
    save(keyDirOf(t.ctx, cwd), session);
    const quiet = buildCapsule(t.ctx, { session: session.sessionId, git: refuseGit });
    assert.equal(quiet.live, false);
    Deno.mkdirSync(t.ctx.paths.sessionsDir, { recursive: true });
    Deno.writeTextFileSync(
      join(t.ctx.paths.sessionsDir, `${Deno.pid}.json`),
      JSON.stringify({ pid: Deno.pid, sessionId: session.sessionId, cwd }),
    );
    const live = buildCapsule(t.ctx, { session: session.sessionId, git: refuseGit });
    assert.equal(live.live, true);
    assert.match(renderCapsule(live), /open in a running claude/);
    // The last line says what to do next with the capsule (issue 31 item 11).
    assert.match(renderCapsule(live), /\n\nNext: give this capsule to claude .*next move\.\n$/);
  } finally {
    t.cleanup();
  }
});

gitTest(
  "a push is checked offline against the remote-tracking branch: pushed over later, it diverges",
  () => {
    const t = createTestContext();
    try {
      const repo = makeRepo(t.home, "app", { "a.txt": "a\n" });
      const remote = join(t.home, "remote.git");
      git(t.home, t.home, "init", "-q", "--bare", remote);
      git(t.home, repo, "remote", "add", "origin", remote);
      git(t.home, repo, "push", "-q", "origin", "main");
      const before = git(t.home, repo, "rev-parse", "HEAD");
      writeFile(repo, "a.txt", "b\n");
      const sha = commitAll(t.home, repo, "change a");
      git(t.home, repo, "push", "-q", "origin", "main");
      const pushReport = `To ${remote}\n   ${before.slice(0, 7)}..${sha.slice(0, 7)}  main -> main`;
      const session = new TranscriptBuilder({ cwd: repo })
        .tool("Bash", { command: "git commit -am 'change a'" }, commitLine("main", sha, "change a"))
        .tool("Bash", { command: "git push origin main" }, pushReport)
        .tool(
          "Bash",
          { command: "git push origin main:topic" },
          ` * [new branch]      main -> topic`,
        );
      save(keyDirOf(t.ctx, repo), session);

      const fine = buildCapsule(t.ctx, { session: session.sessionId });
      assert.deepEqual(fine.records.map((r) => `${r.record.kind} ${r.status}`), [
        "commit completed",
        "push completed",
        "push diverged",
        "branch completed",
      ]);
      assert.equal(fine.records[2].verification.found, "no remote-tracking branch topic");

      git(t.home, repo, "push", "-q", "-f", "origin", `${before}:main`);
      const over = buildCapsule(t.ctx, { session: session.sessionId });
      assert.equal(over.records[1].status, "diverged");
      assert.match(over.records[1].verification.found!, /no remote-tracking branch main holds it/);
    } finally {
      t.cleanup();
    }
  },
);

gitTest("a session folder that is no longer a git repository: the branch check says so", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "was-a-repo");
    const session = new TranscriptBuilder({ cwd, gitBranch: "main" }).tool("Bash", {
      command: "make",
    }, "ok");
    save(keyDirOf(t.ctx, cwd), session);
    const capsule = buildCapsule(t.ctx, { session: session.sessionId });
    const branch = capsule.records.at(-1)!;
    assert.equal(branch.status, "diverged");
    assert.equal(branch.verification.found, `no git repository at ${cwd}`);
    assert.equal(capsule.nextMove.record, "r2");
  } finally {
    t.cleanup();
  }
});

Deno.test("a call the session went on without ranks below one it was cut off in; a commit with no id says it was not checked", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "plain");
    const session = new TranscriptBuilder({ cwd, gitBranch: "" })
      .toolUse("Bash", { command: "npm run dev" })
      .tool("Bash", { command: "git commit -m wip" }, "husky > pre-commit hook ran 40 checks")
      .toolUse("Bash", { command: "npm run e2e" });
    save(keyDirOf(t.ctx, cwd), session);
    const capsule = buildCapsule(t.ctx, { session: session.sessionId, git: refuseGit });
    assert.deepEqual(capsule.records.map((r) => [r.status, r.reason]), [
      ["in-progress", "no result recorded; the session went on without it"],
      ["completed", "done, but its recorded output names no commit id to check"],
      ["in-progress", "no result recorded: it was still running when the session stopped"],
    ]);
    assert.equal(capsule.nextMove.record, "r3");
    const earlier = buildCapsule(t.ctx, {
      session: session.sessionId,
      git: refuseGit,
      scope: "npm run dev",
    });
    assert.match(earlier.nextMove.action, /^Retry `npm run dev` in .*\.$/);
  } finally {
    t.cleanup();
  }
});
