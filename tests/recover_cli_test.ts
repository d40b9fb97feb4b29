import assert from "node:assert/strict";
import { join } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { finishedSession, keyDirOf, makeFolder, save } from "./helpers/projects.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { permissionsTestable, runClaudecmUnprivileged } from "./helpers/run_unprivileged.ts";
import { gitAvailable } from "./helpers/portable.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { treeState } from "./helpers/tree_state.ts";

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

/** A HOME with a project that has a crashed session, an older one, and the live one. */
function world() {
  const t = createTestContext();
  const cwd = makeFolder(t.home, "src/my.app");
  const dir = keyDirOf(t.ctx, cwd);
  const crashed = new TranscriptBuilder({ cwd, start: hoursAgo(2) })
    .metadata({ customTitle: "login fix" })
    .prompt("fix the login redirect")
    .toolUse("Bash", { command: "npm test -- login" });
  const older = finishedSession({
    cwd,
    title: "older work",
    start: hoursAgo(20),
  });
  const live = finishedSession({
    cwd,
    title: "this session",
    start: hoursAgo(0.01),
  });
  for (const builder of [crashed, older, live]) save(dir, builder);
  const env = { ...t.env, CLAUDE_CODE_SESSION_ID: live.sessionId };
  return { t, cwd, dir, crashed, older, live, env };
}

Deno.test("recover --json lists candidates, live session excluded, and writes nothing", async () => {
  const w = world();
  try {
    const before = treeState(w.t.home);
    const run = await runClaudecm(["recover", "--json"], { env: w.env, cwd: w.cwd });
    assert.equal(run.code, 0, run.stderr);
    const list = JSON.parse(run.stdout);
    assert.equal(list.projectDir, w.dir);
    assert.deepEqual(list.candidates.map((c: { id: string }) => c.id), [
      w.crashed.sessionId,
      w.older.sessionId,
    ]);
    assert.deepEqual(list.excluded, [{ id: w.live.sessionId, reason: "requested" }]);
    const [first] = list.candidates;
    assert.equal(first.title, "login fix");
    assert.equal(first.lastPrompt, null);
    assert.equal(first.branch, "main");
    assert.equal(first.truncated, false);
    assert.deepEqual(treeState(w.t.home), before);
  } finally {
    w.t.cleanup();
  }
});

Deno.test("recover --exclude and --limit, from another folder with --cwd", async () => {
  const w = world();
  try {
    const args = [
      "recover",
      "--json",
      "--cwd",
      w.cwd,
      "--exclude",
      w.crashed.sessionId,
      "--limit",
      "1",
    ];
    const run = await runClaudecm(args, { env: w.env, cwd: w.t.home });
    const list = JSON.parse(run.stdout);
    assert.deepEqual(list.candidates.map((c: { id: string }) => c.id), [w.older.sessionId]);
  } finally {
    w.t.cleanup();
  }
});

Deno.test("--exclude is repeatable, refuses what is not a session id, and an empty one adds nothing", async () => {
  const w = world();
  try {
    const both = await runClaudecm([
      "recover",
      "--json",
      "--exclude",
      w.crashed.sessionId,
      "--exclude",
      w.older.sessionId.toUpperCase(),
      "--exclude",
      "",
    ], { env: w.t.env, cwd: w.cwd });
    assert.equal(both.code, 0, both.stderr);
    const list = JSON.parse(both.stdout);
    assert.deepEqual(list.candidates.map((c: { id: string }) => c.id), [w.live.sessionId]);
    // recall checks the session against git: where there is none (Windows CI), it cannot run.
    if (gitAvailable()) {
      const last = await runClaudecm([
        "recall",
        "--last",
        "--json",
        "--exclude",
        w.live.sessionId,
        "--exclude",
        w.crashed.sessionId,
      ], { env: w.t.env, cwd: w.cwd });
      assert.equal(JSON.parse(last.stdout).session_id, w.older.sessionId, last.stderr);
    }
    // An empty --exclude (the skill outside a session) adds nothing, with or without --last.
    const named = await runClaudecm(["recall", w.older.sessionId, "--exclude", ""], {
      env: w.t.env,
      cwd: w.cwd,
    });
    assert.notEqual(named.code, 2, named.stderr);
    for (
      const args of [
        ["recover", "--json", "--exclude", "nope"],
        ["recall", "--last", "--exclude", `${w.crashed.sessionId}x`],
        ["recall", w.older.sessionId, "--exclude", w.crashed.sessionId],
      ]
    ) {
      const run = await runClaudecm(args, { env: w.t.env, cwd: w.cwd });
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    }
  } finally {
    w.t.cleanup();
  }
});

Deno.test({
  name: "a transcript that cannot be read is named with the fix, never passed over in silence",
  ignore: !permissionsTestable,
  fn: async () => {
    const w = world();
    try {
      const unreadable = join(w.dir, `${w.crashed.sessionId}.jsonl`);
      Deno.chmodSync(unreadable, 0o000);
      const run = (args: string[]) =>
        runClaudecmUnprivileged(args, { env: w.env, cwd: w.cwd, home: w.t.home });
      const listed = await run(["recover", "--json"]);
      assert.equal(listed.code, 0, listed.stderr);
      const list = JSON.parse(listed.stdout);
      assert.deepEqual(list.candidates.map((c: { id: string }) => c.id), [w.older.sessionId]);
      const [exclusion] = list.excluded.filter((e: { reason: string }) =>
        e.reason === "unreadable"
      );
      assert.equal(exclusion.id, w.crashed.sessionId);
      assert.match(exclusion.error, /^permission denied: .*\.jsonl; let your user read/);
      const table = await run(["recover"]);
      assert.equal(table.code, 0, table.stderr);
      assert.match(
        table.stderr,
        new RegExp(`recover: permission denied: .*${w.crashed.sessionId}`),
      );
      const digest = await run(["recover", "--session", w.crashed.sessionId, "--digest"]);
      assert.equal(digest.code, 1);
      assert.match(digest.stderr, /^claudecm: permission denied: .*\.jsonl; let your user read/);
      assert.equal(digest.stderr.split(w.crashed.sessionId).length, 2, "the path once");
      if (gitAvailable()) {
        const picked = await run(["recall", "--last"]);
        assert.match(
          picked.stderr,
          new RegExp(`recall: permission denied: .*${w.crashed.sessionId}`),
        );
      }

      Deno.chmodSync(join(w.dir, `${w.older.sessionId}.jsonl`), 0o000);
      const none = await run(["recover"]);
      assert.equal(none.code, 1, none.stdout);
      assert.doesNotMatch(none.stdout, /No prior session/);
      const json = await run(["recover", "--json"]);
      assert.equal(json.code, 1);
      assert.deepEqual(JSON.parse(json.stdout).candidates, []);
      const last = await run(["recall", "--last", "--json"]);
      assert.equal(last.code, 1, last.stderr);
      const failure = JSON.parse(last.stdout);
      assert.deepEqual([failure.status, failure.exitCode], ["error", 1]);
      assert.match(failure.message, /no session to recall in .*: permission denied/);
    } finally {
      w.t.cleanup();
    }
  },
});

Deno.test("recover and recall refuse a --cwd that names a file; a relative or gone folder is taken as a folder", async () => {
  const w = world();
  try {
    const file = join(w.cwd, "notes.txt");
    Deno.writeTextFileSync(file, "not a folder");
    for (
      const args of [
        ["recover", "--json", "--cwd", file],
        ["recover", "--session", w.crashed.sessionId, "--digest", "--cwd", file],
        ["recall", "--last", "--json", "--cwd", file],
      ]
    ) {
      const run = await runClaudecm(args, { env: w.env, cwd: w.t.home });
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stderr, `claudecm: --cwd must name a folder, and ${file} is not one\n`);
    }
    const relative = await runClaudecm(["recover", "--json", "--cwd", "src/my.app"], {
      env: w.env,
      cwd: w.t.home,
    });
    assert.equal(JSON.parse(relative.stdout).cwd, w.cwd);
    if (Deno.build.os !== "windows") {
      const loop = join(w.t.home, "loop");
      Deno.symlinkSync(loop, loop);
      const looped = await runClaudecm(["recover", "--json", "--cwd", loop], { env: w.env });
      assert.equal(looped.code, 2);
      assert.match(looped.stderr, /^claudecm: --cwd: cannot look at .*loop \(/);
    }
    const gone = join(w.t.home, "removed folder");
    const run = await runClaudecm(["recover", "--json", "--cwd", gone], { env: w.env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).cwd, gone);
  } finally {
    w.t.cleanup();
  }
});

Deno.test("recover --session --digest prints the digest ending with the resume line", async () => {
  const w = world();
  try {
    const before = treeState(w.t.home);
    const args = ["recover", "--session", w.crashed.sessionId, "--digest"];
    const run = await runClaudecm(args, { env: w.env, cwd: w.cwd });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /## Title\nlogin fix/);
    assert.match(run.stdout, /work was in progress on Bash: npm test -- login/);
    assert.ok(run.stdout.endsWith(`claude --resume ${w.crashed.sessionId}\n`));
    assert.deepEqual(treeState(w.t.home), before);
    const json = await runClaudecm([...args, "--json", "--budget", "400"], {
      env: w.env,
      cwd: w.cwd,
    });
    const digest = JSON.parse(json.stdout);
    assert.ok(digest.digest.length <= 400);
    assert.equal(digest.resume, `claude --resume ${w.crashed.sessionId}`);
  } finally {
    w.t.cleanup();
  }
});

Deno.test("recover: bad or unknown session id exits 3, bad usage exits 2, one line each", async () => {
  const w = world();
  try {
    const cases: [string[], number, RegExp][] = [
      [
        ["recover", "--session", "nope", "--digest"],
        3,
        /no such session: nope \(see claudecm list\)/,
      ],
      [["recover", "--session", crypto.randomUUID(), "--digest"], 3, /no transcript for session/],
      [["recover", "--digest"], 2, /--digest needs --session/],
      [["recover", "--limit", "0"], 2, /positive whole number/],
      [["recover", "--session", w.crashed.sessionId, "--budget", "50"], 2, /too small/],
    ];
    for (const [args, code, message] of cases) {
      const run = await runClaudecm(args, { env: w.env, cwd: w.cwd });
      assert.equal(run.code, code, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    }
  } finally {
    w.t.cleanup();
  }
});

Deno.test("recover in a folder with no prior session: empty answer, exit 0", async () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "fresh");
    const before = treeState(t.home);
    const json = await runClaudecm(["recover", "--json"], { env: t.env, cwd });
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).candidates, []);
    const human = await runClaudecm(["recover"], { env: t.env, cwd });
    assert.equal(human.code, 0);
    assert.match(human.stdout, /No prior session for this folder/);
    assert.deepEqual(treeState(t.home), before, "no .claude, no bootstrap, no backup");
  } finally {
    t.cleanup();
  }
});

Deno.test("recover without a terminal prints the table", async () => {
  const w = world();
  try {
    const run = await runClaudecm(["recover"], { env: w.env, cwd: w.cwd });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /1\) login fix {2}\[/);
    assert.match(run.stdout, /2\) older work/);
    assert.ok(!run.stdout.includes("this session"));
  } finally {
    w.t.cleanup();
  }
});

Deno.test("skill install writes SKILL.md once, --print writes nothing", async () => {
  const t = createTestContext();
  try {
    const path = join(t.home, ".claude", "skills", "recover", "SKILL.md");
    const printed = await runClaudecm(["skill", "install", "--print"], { env: t.env });
    assert.equal(printed.code, 0);
    assert.match(printed.stdout, /^---\nname: recover\ndescription: .*crashed/);
    assert.throws(() => Deno.statSync(path));
    const first = await runClaudecm(["skill", "install"], { env: t.env });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Installed the recover skill/);
    assert.equal(Deno.readTextFileSync(path), printed.stdout);
    const mtime = Deno.statSync(path).mtime;
    const second = await runClaudecm(["skill", "install"], { env: t.env });
    assert.match(second.stdout, /already installed/);
    assert.deepEqual(Deno.statSync(path).mtime, mtime);
    Deno.writeTextFileSync(path, "old version");
    const third = await runClaudecm(["skill", "install"], { env: t.env });
    assert.match(third.stdout, /Updated the recover skill/);
    assert.equal(Deno.readTextFileSync(path), printed.stdout);
    const json = await runClaudecm(["skill", "install", "--json"], { env: t.env });
    assert.deepEqual(JSON.parse(json.stdout), { path, status: "unchanged" });
    const both = await runClaudecm(["skill", "install", "--print", "--json"], { env: t.env });
    assert.equal(both.code, 2);
    assert.equal(JSON.parse(both.stdout).status, "usage-error");
  } finally {
    t.cleanup();
  }
});

Deno.test("recover --strict stops at a corrupt line; lenient mode skips and counts it", async () => {
  const w = world();
  try {
    const path = join(w.dir, `${w.older.sessionId}.jsonl`);
    const lines = Deno.readTextFileSync(path).split("\n");
    lines.splice(2, 0, '{"type":"user","message":');
    Deno.writeTextFileSync(path, lines.join("\n"));
    const args = ["recover", "--session", w.older.sessionId, "--digest"];
    const lenient = await runClaudecm(args, { env: w.env, cwd: w.cwd });
    assert.equal(lenient.code, 0, lenient.stderr);
    assert.match(lenient.stdout, /1 corrupt line \(line 3\) skipped/);
    const strict = await runClaudecm([...args, "--strict"], { env: w.env, cwd: w.cwd });
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /^claudecm: .*\.jsonl: line 3 is not valid JSON\n$/);
  } finally {
    w.t.cleanup();
  }
});

Deno.test("a line too long to read is named in the digest, its JSON and the skeleton, never dropped in silence", async () => {
  const w = world();
  try {
    const id = w.older.sessionId;
    const path = join(w.dir, `${id}.jsonl`);
    const lines = Deno.readTextFileSync(path).trimEnd().split("\n");
    const paste = JSON.stringify({
      type: "user",
      message: { role: "user", content: "B".repeat(17 * 1024 * 1024) },
    });
    Deno.writeTextFileSync(path, [...lines, paste].join("\n") + "\n");
    const note = new RegExp(`1 line too long to read \\(line ${lines.length + 1}\\) skipped`);
    const digest = await runClaudecm(["recover", "--session", id, "--digest"], {
      env: w.env,
      cwd: w.cwd,
    });
    assert.equal(digest.code, 0, digest.stderr);
    assert.match(digest.stdout, note);
    const json = await runClaudecm(["recover", "--session", id, "--json"], {
      env: w.env,
      cwd: w.cwd,
    });
    assert.equal(JSON.parse(json.stdout).oversizedLines, 1);
    const out = join(w.t.home, "skeleton out");
    const skeleton = await runClaudecm(["skeleton", id, "--out", out], { env: w.env, cwd: w.cwd });
    assert.equal(skeleton.code, 0, skeleton.stderr);
    assert.match(skeleton.stderr, note);
    assert.match(Deno.readTextFileSync(join(out, `${id}-skeleton.md`)), note);
  } finally {
    w.t.cleanup();
  }
});
