import assert from "node:assert/strict";
import { refreshSession } from "../lib/app/refresh/refresh.ts";
import { NOTES_MARKER, SKELETON_END } from "../lib/app/refresh/refresh_prompt.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { isFile } from "../lib/core/fs_checks.ts";
import { vaultFilesFor } from "../lib/core/session_copies.ts";
import { archivedSessions, mainSessions } from "../lib/core/registry.ts";
import { readRegistry } from "../lib/store/registry_store.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { writeRegistryText } from "./helpers/claude_home.ts";
import { createFakeWorld, fakeToolPath, type FakeWorld } from "./helpers/fakes.ts";
import { createTestContext, type TestContext } from "./helpers/test_context.ts";

const OLD = "4f6b8daa-7ea9-4b8d-9a6c-5d1e2f3a4b5c";
const OTHER = "5a7c9ebb-8fba-4c9e-8b7d-6e2f3a4b5c6d";
const SETTINGS = { machineName: "desk", permissionArgs: ["--dangerously-skip-permissions"] };

interface Seeded {
  world: FakeWorld;
  test: TestContext;
  cleanup: () => void;
}

/** A registered session with a transcript, another session above it, and the fakes. */
function seed(options: { answers: string[]; transcript?: TranscriptBuilder | null }): Seeded {
  const world = createFakeWorld();
  const test = createTestContext({
    env: world.env,
    cwd: world.project,
    answers: options.answers,
    now: new Date(),
  });
  const paths = test.ctx.paths;
  writeRegistryText(
    paths,
    `${OTHER}|${world.project}|Other work|7\n${OLD}|${world.project}|Parser Work|48213\n`,
  );
  const transcript = options.transcript === undefined
    ? new TranscriptBuilder({ cwd: world.project, sessionId: OLD })
      .prompt("Make the parser stream")
      .tool(
        "Edit",
        { file_path: `${world.project}/parser.ts`, old_string: "a", new_string: "b" },
        "ok",
      )
      .text("[important] keep the old API")
    : options.transcript;
  if (transcript !== null) {
    const folder = projectDirFor(paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    transcript.write(`${folder}/${OLD}.jsonl`);
  }
  return {
    world,
    test,
    cleanup: () => {
      test.cleanup();
      Deno.removeSync(world.dir, { recursive: true });
    },
  };
}

/** The text claude read on stdin: the first prompt of the session it created. */
function promptReceived(s: Seeded, id: string): string {
  const path = `${projectDirFor(s.test.ctx.paths, s.world.project)}/${id}.jsonl`;
  const first = Deno.readTextFileSync(path).split("\n").map((line) => line && JSON.parse(line))
    .find((line) => line?.type === "user");
  return first.message.content;
}

Deno.test("refresh with a skeleton: prompt on stdin, [new] + others + [old (old)], temp dir removed", async () => {
  const s = seed({ answers: ["Parser Work 2", "n"] });
  try {
    const fresh = await refreshSession(s.test.ctx, SETTINGS, { guid: OLD });
    assert.ok(fresh !== null, s.test.stderr());
    const sessions = mainSessions(readRegistry(s.test.ctx.paths));
    assert.deepEqual(sessions.map((x) => [x.guid, x.desc]), [
      [fresh, "Parser Work 2"],
      [OTHER, "Other work"],
      [OLD, "Parser Work (old)"],
    ]);
    assert.match(sessions[0].tokens, /^\d+$/, "cmv benchmark gives the tokens");
    const prompt = promptReceived(s, fresh!);
    assert.match(prompt, /^Read your memories\. This is a fresh session/);
    assert.match(prompt, /5\) The structured extraction below/);
    assert.match(prompt, /6\) A filtered transcript of the previous session/);
    assert.ok(prompt.includes(NOTES_MARKER));
    assert.match(prompt, /# Session Refresh: Parser Work\n/);
    assert.match(prompt, /\[important\] keep the old API/);
    const claudeRun = s.world.argv("claude").find(({ argv }) => argv.includes("-p"))!;
    // claudecm picks the new session's id, so a cancelled run's transcript can be found.
    assert.deepEqual(claudeRun.argv, [
      "-p",
      "--output-format",
      "json",
      "--dangerously-skip-permissions",
      "--session-id",
      fresh,
    ], "the prompt never travels as an argument");
    assert.deepEqual([...Deno.readDirSync(s.test.ctx.paths.refreshTempDir)], []);
    assert.match(s.test.stdout(), /Fresh session created: Parser Work 2/);
  } finally {
    s.cleanup();
  }
});

Deno.test("refresh without a skeleton (transcript gone) still primes the new session", async () => {
  const s = seed({ answers: ["", "n"], transcript: null });
  try {
    const fresh = await refreshSession(s.test.ctx, SETTINGS, { guid: OLD });
    assert.ok(fresh !== null);
    const prompt = promptReceived(s, fresh!);
    assert.ok(!prompt.includes("5) The structured extraction"));
    assert.ok(!prompt.includes(NOTES_MARKER));
    assert.match(prompt, /IMPORTANT:\n- The files listed below/);
    assert.match(s.test.stdout(), /transcript not found, skipping skeleton extraction/);
    const desc = mainSessions(readRegistry(s.test.ctx.paths)).map((x) => x.desc);
    assert.deepEqual(desc, ["Parser Work", "Other work", "Parser Work (old)"]);
  } finally {
    s.cleanup();
  }
});

Deno.test("refresh with a transcript that has no conversation goes on without a skeleton", async () => {
  const empty = new TranscriptBuilder({ cwd: "/x", sessionId: OLD }).metadata({ customTitle: "t" });
  const s = seed({ answers: ["", "n"], transcript: empty });
  try {
    assert.ok(await refreshSession(s.test.ctx, SETTINGS, { guid: OLD }) !== null);
    assert.match(s.test.stdout(), /No skeleton: .*no user or assistant messages/);
  } finally {
    s.cleanup();
  }
});

Deno.test("the edited prompt is what claude receives; the prompt file is removed", async () => {
  const s = seed({ answers: ["", "y"] });
  try {
    s.test.env.EDITOR = fakeToolPath("editor");
    s.test.env.FAKE_EDITOR_FIND = NOTES_MARKER;
    s.test.env.FAKE_EDITOR_REPLACE = `${NOTES_MARKER}\nThe user prefers tabs.`;
    const log = `${s.test.home}/editor.log`;
    s.test.env.FAKE_EDITOR_LOG = log;
    const fresh = await refreshSession(s.test.ctx, SETTINGS, { guid: OLD });
    assert.ok(fresh !== null, s.test.stderr());
    // Each refresh edits a file in its own folder: two windows refreshing at once never share one.
    const edited = JSON.parse(Deno.readTextFileSync(log)).path as string;
    const own = edited.slice(s.test.ctx.paths.refreshTempDir.length + 1).split(/[\\/]/);
    assert.ok(edited.startsWith(s.test.ctx.paths.refreshTempDir), edited);
    assert.equal(own.length, 2, edited);
    assert.ok(own[0].includes(OLD), edited);
    assert.match(promptReceived(s, fresh!), /ADD YOUR NOTES HERE.*---\nThe user prefers tabs\./);
    assert.ok(!s.test.questions.join("").includes("undefined"));
    assert.throws(() => Deno.statSync(edited), Deno.errors.NotFound, "the prompt file is removed");
  } finally {
    s.cleanup();
  }
});

Deno.test("a prompt of over 40,000 characters reaches claude intact through stdin", async () => {
  const big = new TranscriptBuilder({ cwd: "/x", sessionId: OLD });
  for (let i = 0; i < 150; i++) {
    big.prompt(`[important] rule ${i}: ${"keep this exact wording ".repeat(12)}`);
  }
  const s = seed({ answers: ["", "n"], transcript: big });
  try {
    const fresh = await refreshSession(s.test.ctx, SETTINGS, { guid: OLD });
    const prompt = promptReceived(s, fresh!);
    assert.ok(prompt.length > 40_000, `prompt is ${prompt.length} characters`);
    assert.ok(prompt.trimEnd().endsWith(SKELETON_END));
    assert.match(prompt, /\[important\] rule 149: /);
  } finally {
    s.cleanup();
  }
});

Deno.test("repeated refreshes label the predecessors (old), (old 2), (old 3)", async () => {
  const s = seed({ answers: ["", "n", "", "n", "", "n"] });
  try {
    let guid = OLD;
    for (let i = 0; i < 3; i++) {
      guid = (await refreshSession(s.test.ctx, SETTINGS, { guid }))!;
    }
    const desc = mainSessions(readRegistry(s.test.ctx.paths)).map((x) => x.desc);
    assert.deepEqual(desc, [
      "Parser Work",
      "Other work",
      "Parser Work (old)",
      "Parser Work (old 2)",
      "Parser Work (old 3)",
    ]);
  } finally {
    s.cleanup();
  }
});

Deno.test("a refresh whose claude -p fails leaves the registry byte for byte unchanged", async () => {
  const s = seed({ answers: ["", "n"] });
  try {
    s.world.claudeScenario({ printIsError: true, printResult: "API Error: 529 overloaded" });
    const before = Deno.readTextFileSync(s.test.ctx.paths.registryFile);
    assert.equal(await refreshSession(s.test.ctx, SETTINGS, { guid: OLD }), null);
    assert.equal(Deno.readTextFileSync(s.test.ctx.paths.registryFile), before);
    assert.match(s.test.stderr(), /did not create a new session \(API Error: 529 overloaded\)/);
    assert.deepEqual([...Deno.readDirSync(s.test.ctx.paths.refreshTempDir)], []);
    assert.deepEqual(archivedSessions(readRegistry(s.test.ctx.paths)), []);
  } finally {
    s.cleanup();
  }
});

Deno.test("a refresh whose claude -p wrote no transcript, or exited non-zero, registers nothing", async () => {
  for (
    const [scenario, said] of [
      [{ printWritesNothing: true }, /wrote no transcript for session [0-9a-f-]+ in /],
      [{ printExitCode: 2 }, /claude exited with code 2/],
    ] as const
  ) {
    const s = seed({ answers: ["", "n"] });
    try {
      s.world.claudeScenario(scenario);
      const before = Deno.readTextFileSync(s.test.ctx.paths.registryFile);
      assert.equal(await refreshSession(s.test.ctx, SETTINGS, { guid: OLD }), null);
      assert.equal(Deno.readTextFileSync(s.test.ctx.paths.registryFile), before);
      assert.match(s.test.stderr(), said);
    } finally {
      s.cleanup();
    }
  }
});

Deno.test("no refresh of a session open in another claude window; a refresh puts the new one in the vault", async () => {
  const s = seed({ answers: ["", "n"] });
  try {
    const paths = s.test.ctx.paths;
    Deno.mkdirSync(paths.sessionsDir, { recursive: true });
    const manifest = `${paths.sessionsDir}/${Deno.pid}.json`;
    Deno.writeTextFileSync(
      manifest,
      JSON.stringify({ pid: Deno.pid, sessionId: OLD, cwd: s.world.project }),
    );
    const before = Deno.readTextFileSync(paths.registryFile);
    assert.equal(await refreshSession(s.test.ctx, SETTINGS, { guid: OLD }), null);
    assert.match(s.test.stdout(), /No refresh: the session is open in another claude window now/);
    assert.equal(Deno.readTextFileSync(paths.registryFile), before);
    Deno.removeSync(manifest);
    const fresh = await refreshSession(s.test.ctx, SETTINGS, { guid: OLD });
    assert.ok(fresh !== null, s.test.stderr());
    const vaulted = vaultFilesFor(paths, { guid: fresh, dir: s.world.project }).transcript;
    assert.ok(isFile(vaulted), "the new session is protected at once");
  } finally {
    s.cleanup();
  }
});

Deno.test("refresh scratch dirs older than a day are cleaned up", async () => {
  const s = seed({ answers: ["", "n"] });
  try {
    const root = s.test.ctx.paths.refreshTempDir;
    const stale = `${root}/20261101-000000-${OTHER}`;
    const recent = `${root}/recent-${OTHER}`;
    Deno.mkdirSync(stale, { recursive: true });
    Deno.mkdirSync(recent, { recursive: true });
    const old = new Date(Date.now() - 25 * 3_600_000);
    Deno.utimeSync(stale, old, old);
    await refreshSession(s.test.ctx, SETTINGS, { guid: OLD });
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), [`recent-${OTHER}`]);
  } finally {
    s.cleanup();
  }
});

Deno.test("refreshing an archived session relabels it where it is", async () => {
  const s = seed({ answers: ["", "n"] });
  try {
    writeRegistryText(
      s.test.ctx.paths,
      `${OTHER}|${s.world.project}|Other work|7\n[archived]\n${OLD}|${s.world.project}|Parser Work|1\n`,
    );
    const fresh = await refreshSession(s.test.ctx, SETTINGS, { guid: OLD });
    const registry = readRegistry(s.test.ctx.paths);
    assert.deepEqual(mainSessions(registry).map((x) => x.guid), [fresh, OTHER]);
    assert.deepEqual(archivedSessions(registry).map((x) => x.desc), ["Parser Work (old)"]);
  } finally {
    s.cleanup();
  }
});

/** The editor the refresh opens is this shell script (given the prompt file as $1). POSIX only. */
function useEditorScript(s: Seeded, script: string): void {
  const editor = `${s.world.dir}/editor-script`;
  Deno.writeTextFileSync(editor, `#!/bin/sh\n${script}\n`);
  Deno.chmodSync(editor, 0o755);
  s.test.env.EDITOR = editor;
}

Deno.test("no refresh for a session whose folder is gone: claude -p never runs elsewhere", async () => {
  const s = seed({ answers: ["", "n"] });
  try {
    Deno.removeSync(s.world.project, { recursive: true });
    assert.equal(await refreshSession(s.test.ctx, SETTINGS, { guid: OLD }), null);
    assert.match(s.test.stdout(), /No refresh: the session's folder is gone/);
    assert.deepEqual(s.world.argv("claude").filter((e) => e.argv.includes("-p")), []);
  } finally {
    s.cleanup();
  }
});

Deno.test({
  name: "a folder that goes while the prompt is edited: no refresh, said in one line",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const s = seed({ answers: ["", "y"] });
    try {
      useEditorScript(s, `rm -rf '${s.world.project}'`);
      assert.equal(await refreshSession(s.test.ctx, SETTINGS, { guid: OLD }), null);
      assert.match(s.test.stdout(), /No refresh: the session's folder is gone/);
      assert.deepEqual(s.world.argv("claude").filter((e) => e.argv.includes("-p")), []);
    } finally {
      s.cleanup();
    }
  },
});

Deno.test({
  name: "an editor that removes the prompt file cancels the refresh in one line",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const s = seed({ answers: ["", "y"] });
    try {
      useEditorScript(s, 'rm -f "$1"');
      assert.equal(await refreshSession(s.test.ctx, SETTINGS, { guid: OLD }), null);
      assert.match(s.test.stderr(), /edited prompt cannot be read .*refresh cancelled/);
    } finally {
      s.cleanup();
    }
  },
});
