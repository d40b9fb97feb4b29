import assert from "node:assert/strict";
import { writeRegistryText } from "./helpers/claude_home.ts";
import { finishedSession, keyDirOf, makeFolder, save } from "./helpers/projects.ts";
import { gitAvailable } from "./helpers/portable.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { createTestContext } from "./helpers/test_context.ts";

/** Two registered sessions, the second one's name given twice to a third. */
function world() {
  const t = createTestContext();
  const cwd = makeFolder(t.home, "app");
  const first = finishedSession({ cwd, title: "First" });
  const second = finishedSession({ cwd, title: "Second" });
  save(keyDirOf(t.ctx, cwd), first);
  save(keyDirOf(t.ctx, cwd), second);
  writeRegistryText(
    t.ctx.paths,
    `${first.sessionId}|${cwd}|weekly notes|\n${second.sessionId}|${cwd}|fix billing|\n` +
      `${second.sessionId.replace(/^./, "f")}|${cwd}|fix billing|\n`,
  );
  return { t, cwd, first, second };
}

Deno.test("recall, skeleton and recover --session take a list number, a name and an id prefix as resume does", async () => {
  const w = world();
  try {
    const { env } = w.t;
    const prefix = w.second.sessionId.slice(0, 8);
    for (const ref of ["2", prefix]) {
      const skeleton = await runClaudecm(
        ["skeleton", ref, "--json", "--force", "--out", w.t.home],
        {
          env,
          cwd: w.cwd,
        },
      );
      assert.equal(skeleton.code, 0, skeleton.stderr);
      assert.equal(JSON.parse(skeleton.stdout).sessionId, w.second.sessionId);
      const recover = await runClaudecm(["recover", "--session", ref, "--json"], {
        env,
        cwd: w.t.home,
      });
      assert.equal(recover.code, 0, recover.stderr);
      assert.equal(JSON.parse(recover.stdout).sessionId, w.second.sessionId);
    }
    // The session recorded a branch: recall asks git about it.
    if (gitAvailable()) {
      const recall = await runClaudecm(["recall", "weekly notes", "--json"], { env, cwd: w.cwd });
      assert.notEqual(recall.code, 3, recall.stderr);
      assert.match(recall.stdout, new RegExp(w.first.sessionId));
    }
  } finally {
    w.t.cleanup();
  }
});

Deno.test("a name two sessions share, or a number past the end, is refused in one line with the same words everywhere", async () => {
  const w = world();
  try {
    const { env } = w.t;
    for (
      const args of [
        ["skeleton", "fix billing"],
        ["recover", "--session", "fix billing"],
        ["restore", "fix billing"],
      ]
    ) {
      const run = await runClaudecm(args, { env, cwd: w.cwd });
      assert.equal(
        run.stderr,
        "claudecm: that name is ambiguous: #2 and #3 (use the number)\n",
        args.join(" "),
      );
      assert.equal(run.code, 2);
    }
    const recall = await runClaudecm(["recall", "fix billing"], { env, cwd: w.cwd });
    assert.equal(recall.stderr, "claudecm: that name is ambiguous: #2 and #3 (use the number)\n");
    for (const args of [["skeleton", "9"], ["restore", "9"], ["recover", "--session", "9"]]) {
      const run = await runClaudecm(args, { env, cwd: w.cwd });
      assert.equal(run.stderr, "claudecm: no session #9: the list has 3\n", args.join(" "));
    }
    const none = await runClaudecm(["restore", "nothing"], { env, cwd: w.cwd });
    assert.equal(none.stderr, "claudecm: no such session: nothing (see claudecm list)\n");
    assert.equal(none.code, 1);
  } finally {
    w.t.cleanup();
  }
});

Deno.test("resume N after another window moved the list: refused with what #N is now and was (no terminal)", async () => {
  const w = world();
  try {
    const { env } = w.t;
    const listed = await runClaudecm(["list"], { env, cwd: w.cwd });
    assert.equal(listed.code, 0, listed.stderr);
    // Another window: the second session ended there and moved to #1.
    const rows = Deno.readTextFileSync(w.t.ctx.paths.registryFile).split("\n");
    Deno.writeTextFileSync(w.t.ctx.paths.registryFile, [rows[1], rows[0], rows[2], ""].join("\n"));
    const run = await runClaudecm(["skeleton", "1", "--json", "--force", "--out", w.t.home], {
      env,
      cwd: w.cwd,
    });
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      "claudecm: #1 is now 'fix billing' (was 'weekly notes', now #2); name it by its name " +
        "or id, or see claudecm list\n",
    );
    // The list shown again is what numbers mean from then on.
    await runClaudecm(["list"], { env, cwd: w.cwd });
    const again = await runClaudecm(["skeleton", "1", "--json", "--force", "--out", w.t.home], {
      env,
      cwd: w.cwd,
    });
    assert.equal(again.code, 0, again.stderr);
  } finally {
    w.t.cleanup();
  }
});
