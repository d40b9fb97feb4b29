import assert from "node:assert/strict";
import { join } from "node:path";
import { buildRescueWorld, DEAD_SLUG, type RescueWorld } from "../fixtures/rescue/world.ts";
import { runRescue } from "../lib/app/rescue/rescue.ts";
import { UserError } from "../lib/core/errors.ts";
import type { ClaudeAdapter, PrintResult } from "../lib/platform/claude.ts";
import type { Tools } from "../lib/platform/tools.ts";
import { createTestContext, type TestContextOptions } from "./helpers/test_context.ts";
import { treeState } from "./helpers/tree_state.ts";
import { pathExists } from "../lib/core/fs_checks.ts";

const NOW = new Date("2026-11-30T12:00:00Z");

function world(options: TestContextOptions = {}) {
  const t = createTestContext({ now: NOW, interactive: false, ...options });
  const w = buildRescueWorld(t.home, NOW);
  return { t, w };
}

function threadFiles(w: RescueWorld): string[] {
  return [...Deno.readDirSync(w.threadsDir)].map((e) => e.name).sort();
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(Deno.readTextFileSync(path));
}

Deno.test("rescue lists the unrecovered dead sessions when nobody can pick, and writes nothing", async () => {
  const { t, w } = world();
  try {
    // The dead session is #2 in the list: the table says so beside its own row number.
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    Deno.writeTextFileSync(
      t.ctx.paths.registryFile,
      `${crypto.randomUUID()}|${w.repo}|Other|\n${w.ids.dead}|${w.repo}|Acme API|\n`,
    );
    const before = treeState(t.home);
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace }), 0);
    const out = t.stdout();
    assert.match(out, /Dead Sessions Found \(last 7 days\):/);
    assert.match(out, /# \| Died .* \| Size {2}\| List/);
    assert.match(out, /1 \| 2026-11-30 \| linked-watching-lovelace \| acme-api \| \d+ KB \| #2\n/);
    assert.match(
      out,
      /2 \| 2026-11-29 \| quarterly-report-draft {3}\| HQ {7}\| \d+ KB \| not in list\n/,
    );
    assert.doesNotMatch(out, /plan-the-offsite|3 \|/);
    assert.match(out, /Recover them with --all/);
    assert.deepEqual(treeState(t.home), before);
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue --all writes the threads, recent.md, INDEX.md, handoff.json; a rerun skips them", async () => {
  const { t, w } = world();
  try {
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, all: true }), 0);
    const deadId = "T-20261130-090015-recovered-linked-watching-lovelace";
    assert.deepEqual(threadFiles(w), [
      "INDEX.md",
      "T-20260101-000000-recovered-plan-the-offsite.json",
      "T-20261129-110014-recovered-quarterly-report-draft.json",
      `${deadId}.json`,
      "handoff.json",
      "recent.md",
    ]);
    const thread = readJson(join(w.threadsDir, `${deadId}.json`));
    assert.equal(thread.id, deadId);
    assert.equal(thread.created_at, "2026-11-30T09:00:15.000Z");
    assert.equal(thread.status, "interrupted");
    assert.equal(thread.category, "recovered");
    assert.equal(thread.company, "acme");
    assert.deepEqual(thread.git, { branch: "feature/oauth", repos: {} });
    assert.deepEqual(thread.files_touched, [
      "repos/private/acme-api/src/auth.ts",
      "companies/acme/notes/oauth.md",
    ]);
    assert.match(String(thread.summary), /^Set out to: \/feature add OAuth login to the API\./);
    const actions = thread.next_actions as string[];
    assert.match(actions[0], /^Check the working tree in repos\/private\/acme-api/);
    assert.match(actions.at(-1)!, new RegExp(`resuming ${w.ids.dead}`));
    assert.deepEqual(thread.recovery, {
      original_session_id: w.ids.dead,
      original_slug: DEAD_SLUG,
      death_timestamp: "2026-11-30T09:00:15.000Z",
      death_count: 2,
      total_lines: Deno.readTextFileSync(w.files.dead).split("\n").length - 1,
      project_dir: "acme-api",
    });
    const recent = Deno.readTextFileSync(join(w.threadsDir, "recent.md")).split("\n");
    assert.deepEqual(recent.filter((l) => l.startsWith("| T-")).map((l) => l.split(" | ")[0]), [
      `| ${deadId}`,
      "| T-20261129-110014-recovered-quarterly-report-draft",
      "| T-20260101-000000-recovered-plan-the-offsite",
    ]);
    const index = Deno.readTextFileSync(join(w.threadsDir, "INDEX.md")).split("\n");
    assert.deepEqual(
      index.filter((l) => l.startsWith("| T-")).map((l) => l.split(" | ")[0]),
      recent.filter((l) => l.startsWith("| T-")).map((l) => l.split(" | ")[0]),
    );
    const handoff = readJson(join(w.threadsDir, "handoff.json"));
    assert.equal(handoff.last_thread, deadId);
    assert.equal(handoff.message, `Recovered dead session: ${DEAD_SLUG} (and 1 more)`);
    assert.equal(handoff.thread_path, `workspace/threads/${deadId}.json`);
    assert.match(t.stdout(), /Session Recovery Complete/);
    assert.match(t.stdout(), new RegExp(`Thread saved: workspace/threads/${deadId}.json`));

    const before = treeState(t.home);
    const again = createTestContext({ now: NOW, interactive: false });
    try {
      const ctx = { ...again.ctx, paths: t.ctx.paths };
      assert.equal(await runRescue(ctx, { workspace: w.workspace, all: true }), 0);
      assert.match(again.stdout(), /No unrecovered dead sessions found \(last 7 days\)\./);
      assert.match(again.stdout(), /3 already recovered/);
    } finally {
      again.cleanup();
    }
    assert.deepEqual(treeState(t.home), before);
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue --dry-run --all shows the threads and the files, and writes nothing", async () => {
  const { t, w } = world();
  try {
    const before = treeState(t.home);
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, all: true, dryRun: true }), 0);
    const out = t.stdout();
    assert.match(out, /Session Recovery \(dry run: nothing written\)/);
    assert.match(out, /"original_session_id": "/);
    assert.match(out, /Would write:\n {2}create {2}.*linked-watching-lovelace\.json/);
    assert.match(
      out,
      /create {2}.*recent\.md\n {2}create {2}.*INDEX\.md\n {2}create {2}.*handoff\.json/,
    );
    // The last line says what to do next (issue 31 item 11).
    assert.match(out, /\nNext: run the same command without --dry-run to write them\.\n$/);
    assert.deepEqual(treeState(t.home), before);
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue in a terminal asks which to recover, again after a bad answer", async () => {
  const { t, w } = world({ interactive: true, answers: ["7", "2"] });
  try {
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace }), 0);
    assert.equal(t.questions.length, 2);
    assert.match(t.stdout(), /Answer numbers between 1 and 2/);
    assert.deepEqual(threadFiles(w).filter((n) => n.includes("recovered-")), [
      "T-20260101-000000-recovered-plan-the-offsite.json",
      "T-20261129-110014-recovered-quarterly-report-draft.json",
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue in a terminal: Enter or end of input recovers nothing", async () => {
  const { t, w } = world({ interactive: true, answers: [""] });
  try {
    const before = treeState(t.home);
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace }), 0);
    assert.match(t.stdout(), /Nothing recovered\./);
    assert.deepEqual(treeState(t.home), before);
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue --session takes one session of any age; unknown, invalid, alive ones are errors", async () => {
  const { t, w } = world();
  try {
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, session: w.ids.old }), 0);
    assert.equal(threadFiles(w).filter((n) => n.includes(w.ids.old.slice(0, 8))).length, 1);
    const fail = (session: string) => runRescue(t.ctx, { workspace: w.workspace, session });
    await assert.rejects(fail("00000000-0000-4000-8000-000000000000"), (e: UserError) => {
      assert.equal(e.exitCode, 3);
      return /no transcript for session/.test(e.message);
    });
    await assert.rejects(fail("nope"), (e: UserError) => e.exitCode === 3);
    await assert.rejects(fail(w.ids.compacted), /did not die of context overflow: no overflow/);
    await assert.rejects(fail(w.ids.midFile), /did not die of context overflow/);
    assert.equal(await fail(w.ids.recovered), 0);
    assert.match(
      t.stdout(),
      new RegExp(
        `Session ${w.ids.recovered} was already recovered: a thread in .*threads names it\.\n` +
          "Next: start a fresh session from that thread, as the rescue said\\.\n$",
      ),
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue --json lists without --all, recovers with it; same data as the report", async () => {
  const { t, w } = world();
  try {
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, json: true }), 0);
    const list = JSON.parse(t.stdout());
    assert.deepEqual(list.dead.map((d: { id: string }) => d.id), [
      w.ids.dead,
      w.ids.compactionError,
    ]);
    assert.deepEqual(list.alreadyRecovered, [w.ids.recovered]);
    assert.deepEqual(list.recovered, []);
    assert.equal(list.written, false);
    assert.equal(list.examined, 5);
    const u = createTestContext({ now: NOW, interactive: false });
    try {
      const ctx = { ...u.ctx, paths: t.ctx.paths };
      await runRescue(ctx, { workspace: w.workspace, json: true, all: true });
      const done = JSON.parse(u.stdout());
      assert.equal(done.written, true);
      assert.deepEqual(done.recovered.map((r: { sessionId: string }) => r.sessionId), [
        w.ids.dead,
        w.ids.compactionError,
      ]);
      assert.equal(done.recovered[0].thread.recovery.original_slug, DEAD_SLUG);
      assert.equal(done.recovered[0].filesTouched, 2);
      assert.equal(done.recovered[0].gitCommands, 1);
      assert.equal(done.files.length, 5);
    } finally {
      u.cleanup();
    }
  } finally {
    t.cleanup();
  }
});

function stubClaude(answer: Partial<PrintResult> | Error, prompts: string[]): Tools {
  const claude = {
    path: "/stub/claude",
    print(args: string[], options: { prompt: string }) {
      prompts.push(`${args.join(" ")}\n${options.prompt}`);
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve({
        sessionId: null,
        result: null,
        isError: false,
        answerIsError: false,
        run: { code: 0, stdout: "", stderr: "", timedOut: false },
        ...answer,
      });
    },
  } as unknown as ClaudeAdapter;
  return {
    claude: () => answer instanceof UserError ? Promise.reject(answer) : Promise.resolve(claude),
    cmv: () => {
      throw new Error("cmv is not used");
    },
    edit: () => {
      throw new Error("the editor is not used");
    },
  };
}

Deno.test("rescue --summarize uses claude's summary, sending the extract on stdin", async () => {
  const prompts: string[] = [];
  const { t, w } = world({
    tools: stubClaude({ result: "  Added OAuth login; died running tests.\n" }, prompts),
  });
  try {
    await runRescue(t.ctx, { workspace: w.workspace, session: w.ids.dead, summarize: true });
    const [name] = threadFiles(w).filter((n) => n.includes(DEAD_SLUG));
    assert.equal(
      readJson(join(w.threadsDir, name)).summary,
      "Added OAuth login; died running tests.",
    );
    assert.equal(prompts.length, 1);
    assert.match(prompts[0], /^--no-session-persistence\n/);
    assert.match(prompts[0], /"firstUserMessage": "\/feature add OAuth login to the API"/);
    assert.match(t.stdout(), /\(by claude\)/);
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue --summarize falls back to the mechanical summary when claude fails", async () => {
  const cases: [Partial<PrintResult> | Error, RegExp][] = [
    [
      { isError: true, answerIsError: true, result: "API Error: 529 overloaded" },
      /claude failed: API Error: 529/,
    ],
    [{ result: "   " }, /claude gave an empty summary/],
    // A non-zero exit whose answer reads as a success is said as the exit it was.
    [
      {
        isError: true,
        result: "A fine summary.",
        run: { code: 1, stdout: "", stderr: "", timedOut: false },
      },
      /claude failed: claude exited with code 1/,
    ],
    [
      { isError: true, run: { code: 143, stdout: "", stderr: "", timedOut: true } },
      /did not answer within 120 s/,
    ],
    [new UserError("claude (Claude Code) not found on PATH"), /not found on PATH/],
  ];
  for (const [answer, note] of cases) {
    const { t, w } = world({ tools: stubClaude(answer, []) });
    try {
      await runRescue(t.ctx, { workspace: w.workspace, session: w.ids.dead, summarize: true });
      const [name] = threadFiles(w).filter((n) => n.includes(DEAD_SLUG));
      assert.match(String(readJson(join(w.threadsDir, name)).summary), /^Set out to: /);
      assert.match(t.stdout(), new RegExp(`Note: {5}claude summary not used: .*${note.source}`));
    } finally {
      t.cleanup();
    }
  }
});

Deno.test("rescue --summarize --dry-run does not run claude", async () => {
  const prompts: string[] = [];
  const { t, w } = world({ tools: stubClaude({ result: "x" }, prompts) });
  try {
    await runRescue(t.ctx, { workspace: w.workspace, all: true, dryRun: true, summarize: true });
    assert.deepEqual(prompts, []);
    assert.match(t.stderr(), /--summarize is not used with --dry-run/);
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue: a thread id already taken gets a suffix, never an overwrite", async () => {
  const { t, w } = world();
  try {
    const taken = join(w.threadsDir, "T-20261130-090015-recovered-linked-watching-lovelace.json");
    Deno.writeTextFileSync(taken, '{"id": "someone else\'s"}');
    await runRescue(t.ctx, { workspace: w.workspace, session: w.ids.dead });
    assert.equal(Deno.readTextFileSync(taken), '{"id": "someone else\'s"}');
    const suffixed = readJson(taken.replace(".json", "-2.json"));
    assert.equal(suffixed.id, "T-20261130-090015-recovered-linked-watching-lovelace-2");
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue changes only its rows in the user's INDEX.md: other bytes, LF or CRLF, kept", async () => {
  // The last: an LF file with one CRLF line the user pasted in.
  for (const [eol, pasted] of [["\n", ""], ["\r\n", ""], ["\n", "pasted\r\n"]]) {
    const { t, w } = world();
    try {
      const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
      const head = bytes(
        `\xef\xbb\xbf# My threads${eol}caf\xe9 notes, not UTF-8${eol}${eol}` +
          `| Thread | Created | Summary | Status |${eol}|---|---|---|---|${eol}`,
      );
      const tail = bytes(
        `| T-mine | 2026-01-01 | mine | done |${eol}${eol}${pasted}More \xff text${eol}`,
      );
      const indexPath = join(w.threadsDir, "INDEX.md");
      Deno.writeFileSync(indexPath, new Uint8Array([...head, ...tail]));
      assert.equal(await runRescue(t.ctx, { workspace: w.workspace, all: true }), 0);
      const after = Deno.readFileSync(indexPath);
      assert.deepEqual(after.subarray(0, head.length), head);
      assert.deepEqual(after.subarray(after.length - tail.length), tail);
      const inserted = new TextDecoder().decode(
        after.subarray(head.length, after.length - tail.length),
      );
      const lines = inserted.split(eol);
      assert.equal(lines.pop(), "");
      assert.equal(lines.length, 3, inserted);
      for (const line of lines) assert.match(line, /^\| T-[^\r\n]* \| interrupted \|$/);
    } finally {
      t.cleanup();
    }
  }
});

Deno.test("rescue killed between its writes: the next run rebuilds INDEX.md, recent.md, handoff.json", async () => {
  const { t, w } = world();
  try {
    const derived = ["INDEX.md", "recent.md", "handoff.json"].map((name) =>
      join(w.threadsDir, name)
    );
    const read = () => derived.map((path) => Deno.readTextFileSync(path));
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, session: w.ids.dead }), 0);
    const afterFirst = read();
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, all: true }), 0);
    const complete = read();
    assert.notDeepEqual(complete, afterFirst);
    // As if the second run had been killed after its thread file, before the rest.
    derived.forEach((path, i) => Deno.writeTextFileSync(path, afterFirst[i]));
    // The first run's handoff.json was written after its own thread file, before the second run's.
    const past = new Date(Date.now() - 3_600_000);
    const firstThread = join(w.threadsDir, `${JSON.parse(afterFirst[2]).last_thread}.json`);
    for (const path of [firstThread, derived[2]]) Deno.utimeSync(path, past, past);
    const stale = join(w.threadsDir, "INDEX.md.tmp-999999999");
    Deno.writeTextFileSync(stale, "half");

    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, all: true }), 0);
    assert.deepEqual(read(), complete);
    assert.equal(pathExists(stale), false, "a dead writer's temp file is removed");
    assert.match(t.stdout(), /Rebuilt recent\.md, INDEX\.md, handoff\.json from the threads/);
    // Repaired once: the run after writes nothing.
    const before = treeState(t.home);
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, all: true }), 0);
    assert.deepEqual(treeState(t.home), before);
  } finally {
    t.cleanup();
  }
});

Deno.test("rescue touches only its own temporary files in the user's workspace, and a dry run none", async () => {
  const { t, w } = world();
  try {
    Deno.mkdirSync(w.threadsDir, { recursive: true });
    const users = [
      join(w.threadsDir, "notes.tmp-999999"),
      join(w.threadsDir, "photos.partial-999998"),
    ];
    Deno.writeTextFileSync(users[0], "mine");
    Deno.mkdirSync(users[1]);
    Deno.writeTextFileSync(join(users[1], "img1.txt"), "mine too");
    const ours = join(w.threadsDir, "INDEX.md.tmp-999997");
    Deno.writeTextFileSync(ours, "half");
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, all: true, dryRun: true }), 0);
    for (const path of [...users, ours]) assert.ok(pathExists(path), `a dry run keeps ${path}`);
    assert.equal(await runRescue(t.ctx, { workspace: w.workspace, all: true }), 0);
    for (const path of users) assert.ok(pathExists(path), `the user's ${path} stays`);
    assert.ok(pathExists(join(users[1], "img1.txt")));
    assert.equal(pathExists(ours), false, "a dead writer's temp file of INDEX.md goes");
  } finally {
    t.cleanup();
  }
});
