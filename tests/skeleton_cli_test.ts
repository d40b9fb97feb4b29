import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { writeRegistryText } from "./helpers/claude_home.ts";
import { finishedSession, keyDirOf, makeFolder, save } from "./helpers/projects.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { permissionsTestable, runClaudecmUnprivileged } from "./helpers/run_unprivileged.ts";
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

Deno.test("skeleton --json names the two files it wrote, with their sizes", async () => {
  const w = world();
  try {
    const run = await runClaudecm(["skeleton", w.session.sessionId, "--out", w.out, "--json"], {
      env: w.t.env,
      cwd: w.cwd,
    });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.sessionId, w.session.sessionId);
    for (const [key, name] of [["skeleton", "skeleton"], ["transcript", "transcript"]]) {
      const path = join(w.out, `${w.session.sessionId}-${name}.md`);
      assert.deepEqual(report[key], { path, bytes: Deno.statSync(path).size });
    }
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
    // Not even the folder: --out named one that was not there, and the run made it.
    assert.throws(() => Deno.statSync(w.out), Deno.errors.NotFound, "nothing left behind");
  } finally {
    w.t.cleanup();
  }
});

// Issue 18 item 15: `--out` naming a file said "internal error: File exists (os error 17)".
Deno.test("skeleton --out: a file, a folder that cannot be made, files already there: one line each, nothing written", async () => {
  const w = world();
  try {
    const id = w.session.sessionId;
    const file = join(w.t.home, "a file");
    Deno.writeTextFileSync(file, "mine");
    const cases: Array<[string, number, RegExp]> = [
      [file, 2, /^claudecm: --out .*a file is a file, not a folder\n$/],
      [
        join(file, "sub"),
        1,
        // Windows answers "already exists" for a folder made under a file: read the same way.
        /^claudecm: part of .*a file[\\/]sub is a file where claudecm needs a folder/,
      ],
    ];
    if (Deno.build.os === "linux") {
      cases.push([
        "/proc/no-such-folder",
        1,
        /^claudecm: cannot create the folder \/proc\/no-such-folder: /,
      ]);
    }
    for (const [out, code, message] of cases) {
      const run = await runClaudecm(["skeleton", id, "--out", out], { env: w.t.env, cwd: w.cwd });
      assert.equal(run.code, code, `${out}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.split("\n").length, 2, "one line");
      assert.doesNotMatch(run.stderr, /internal error/);
    }
    assert.equal(Deno.readTextFileSync(file), "mine");

    const first = await runClaudecm(["skeleton", id, "--out", w.out], { env: w.t.env, cwd: w.cwd });
    assert.equal(first.code, 0, first.stderr);
    const skeleton = join(w.out, `${id}-skeleton.md`);
    Deno.writeTextFileSync(skeleton, "edited by hand");
    const again = await runClaudecm(["skeleton", id, "--out", w.out], { env: w.t.env, cwd: w.cwd });
    assert.equal(again.code, 2);
    assert.equal(again.stderr, `claudecm: ${skeleton} already exists; --force replaces it\n`);
    assert.equal(Deno.readTextFileSync(skeleton), "edited by hand");
    const forced = await runClaudecm(["skeleton", id, "--out", w.out, "--force"], {
      env: w.t.env,
      cwd: w.cwd,
    });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(Deno.readTextFileSync(skeleton), /^# Session Refresh: Refactor The Parser\n/);
  } finally {
    w.t.cleanup();
  }
});

Deno.test({
  name: "skeleton --out in a folder the user may not write: one line naming it, exit 1",
  ignore: !permissionsTestable,
  fn: async () => {
    const w = world();
    try {
      const locked = join(w.t.home, "locked");
      Deno.mkdirSync(locked, { mode: 0o555 });
      Deno.chmodSync(locked, 0o555);
      const run = await runClaudecmUnprivileged(
        ["skeleton", w.session.sessionId, "--out", join(locked, "out")],
        { env: w.t.env, cwd: w.t.home, home: w.t.home },
      );
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /^claudecm: permission denied: .*locked\/out; /);
      assert.equal(run.stderr.split("\n").length, 2, "one line");
    } finally {
      w.t.cleanup();
    }
  },
});

Deno.test("skeleton --force with a folder where an output goes writes neither file", async () => {
  const w = world();
  try {
    const first = await runClaudecm(["skeleton", w.session.sessionId, "--out", w.out], {
      env: w.t.env,
      cwd: w.cwd,
    });
    assert.equal(first.code, 0, first.stderr);
    const [skeletonPath, transcriptPath] = first.stdout.trim().split("\n").map((l) =>
      l.replace(/ \([^)]*\)$/, "")
    );
    const before = Deno.readTextFileSync(skeletonPath);
    Deno.removeSync(transcriptPath);
    Deno.mkdirSync(transcriptPath);
    const forced = await runClaudecm(["skeleton", w.session.sessionId, "--out", w.out, "--force"], {
      env: w.t.env,
      cwd: w.cwd,
    });
    assert.equal(forced.code, 1);
    assert.match(forced.stderr, /is a folder where the output goes/);
    assert.equal(Deno.readTextFileSync(skeletonPath), before, "the skeleton is not replaced");
  } finally {
    w.t.cleanup();
  }
});

Deno.test("skeleton of a transcript whose name is too long to name the output after: one line, nothing written", async () => {
  const w = world();
  try {
    const source = join(w.t.home, `${w.session.sessionId}.jsonl`);
    Deno.writeTextFileSync(source, w.session.toString());
    Deno.mkdirSync(w.out);
    for (const length of [236, 242]) {
      const long = join(w.t.home, `${"z".repeat(length)}.jsonl`);
      Deno.copyFileSync(source, long);
      const run = await runClaudecm(["skeleton", long, "--out", w.out], { env: w.t.env });
      assert.equal(run.code, 1, `${length}: ${run.stderr}`);
      assert.match(run.stderr, /^claudecm: the transcript's name is too long to name the output/);
      assert.doesNotMatch(run.stderr, /already exists|tmp-/);
      assert.deepEqual([...Deno.readDirSync(w.out)], []);
    }
  } finally {
    w.t.cleanup();
  }
});

Deno.test({
  name: "a pipe named as the transcript: skeleton and recall say it is not a regular file, exit 1",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const w = world();
    try {
      const fifo = join(w.t.home, "named.jsonl");
      new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
      for (const args of [["skeleton", fifo, "--out", w.out], ["recall", fifo]]) {
        const run = await runClaudecm(args, { env: w.t.env, cwd: w.t.home });
        assert.equal(run.code, 1, `${args[0]}: ${run.stderr}`);
        assert.match(run.stderr, /is not a regular file \(a pipe or a device\)/, args[0]);
      }
    } finally {
      w.t.cleanup();
    }
  },
});

Deno.test("skeleton's files carry no escape sequence from the transcript: a cat of them is safe", async () => {
  const w = world();
  try {
    const hostile = new TranscriptBuilder({ cwd: w.cwd })
      .prompt("make it \x1b[31mred\x1b[0m and ring \x07 \x1b]0;pwned\x07")
      .tool("Bash", { command: "printf '\\x1b[2J'" }, "\x1b[2Jcleared\x9b")
      .text("done \x1b[1mbold\x1b[0m");
    const path = join(w.t.home, `${hostile.sessionId}.jsonl`);
    hostile.write(path);
    const run = await runClaudecm(["skeleton", path, "--out", w.out], { env: w.t.env });
    assert.equal(run.code, 0, run.stderr);
    for (const name of [`${hostile.sessionId}-skeleton.md`, `${hostile.sessionId}-transcript.md`]) {
      const text = Deno.readTextFileSync(join(w.out, name));
      // deno-lint-ignore no-control-regex -- the controls are what it looks for
      assert.doesNotMatch(text, /[\x07\x1b\x9b]/, name);
      assert.match(text, /\^\[\[31mred/, `${name} shows them`);
    }
  } finally {
    w.t.cleanup();
  }
});
