import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { type FindJson, type FindOptions, runFind } from "../lib/app/find/find.ts";
import { runAdopt } from "../lib/app/adopt/adopt.ts";
import { findIndexPath } from "../lib/app/find/index_search.ts";
import { createMemoryOutput } from "../lib/ui/output.ts";
import { parseSince } from "../lib/core/since.ts";
import { join } from "../lib/core/path.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { failReadsAfter, type FindHistory, writeFindHistory } from "./helpers/find_fixtures.ts";
import { createTestContext, type TestContext } from "./helpers/test_context.ts";
import { treeState } from "./helpers/tree_state.ts";
import { keyDirOf, makeFolder } from "./helpers/projects.ts";
import { slashed } from "./helpers/portable.ts";

const NOW = new Date("2026-11-30T12:00:00Z");

function setup(): { t: TestContext; history: FindHistory } {
  const t = createTestContext({ now: NOW, interactive: false });
  return { t, history: writeFindHistory(t.ctx, t.home) };
}

async function find(t: TestContext, terms: string[], options: Partial<FindOptions> = {}) {
  const out = createMemoryOutput();
  t.ctx.out = out;
  const code = await runFind(t.ctx, { terms, json: true, ...options });
  assert.equal(code, 0);
  return JSON.parse(out.text()) as FindJson;
}

const ids = (json: FindJson) => json.results.map((r) => r.sessionId);

/** One session per text, each prompted with it, in folder `dir` under HOME: their ids. */
function sessionsSaying(t: TestContext, dir: string, texts: readonly string[]): string[] {
  const cwd = makeFolder(t.home, dir);
  const folder = keyDirOf(t.ctx, cwd);
  return texts.map((text) => {
    const session = new TranscriptBuilder({ cwd, start: new Date("2026-11-29T10:00:00Z") })
      .prompt(text).text("ok");
    session.write(join(folder, `${session.sessionId}.jsonl`));
    return session.sessionId;
  });
}

/** Words of many scripts, each said in its own session. */
const SCRIPTS = [
  "файл открыт",
  "Ёлка и йогурт",
  "세계 평화",
  "データベース接続",
  "हिंदी भाषा",
  "สวัสดี ครับ",
  "שלום עולם",
  "Café crème",
];

for (const index of [true, false]) {
  Deno.test(`find through ${index ? "the index" : "--no-index"}: a word of any script, as typed`, async () => {
    const { t } = setup();
    try {
      const ids = sessionsSaying(t, "src/scripts", SCRIPTS);
      for (const [i, text] of SCRIPTS.entries()) {
        const word = text.split(" ")[0];
        const found = (await find(t, [word], { index })).results.map((r) => r.sessionId);
        assert.deepEqual(found, [ids[i]], word);
      }
    } finally {
      t.cleanup();
    }
  });
}

/** Words glued to emoji and symbols newer than SQLite's Unicode tables (Unicode 6.1). */
const GLUED = [
  "ready\u{1F9D1}\u200D\u{1F4BB}launch",
  "tested\u{1FA77}twice",
  "gr\u00FCn\u{1FAE1}gelb",
];

for (const index of [true, false]) {
  Deno.test(`find through ${index ? "the index" : "--no-index"}: a word glued to a newer emoji`, async () => {
    const { t } = setup();
    try {
      const sessions = sessionsSaying(t, "src/glued", GLUED.map((text) => `it is ${text} now`));
      const asked: [string[], string][] = [
        [["launch"], sessions[0]],
        [["ready launch"], sessions[0]],
        [["twice"], sessions[1]],
        [[GLUED[1]], sessions[1]],
        [["gelb"], sessions[2]],
      ];
      for (const [terms, id] of asked) {
        assert.deepEqual(ids(await find(t, terms, { index })), [id], terms.join(" "));
      }
    } finally {
      t.cleanup();
    }
  });
}

/** Text, a word asked for, and whether it is found: the same through the index and without it. */
const MARKED: [string, string, boolean][] = [
  ["ready\uFE0Flaunch now", "ready", false], // a variation selector inside a word
  ["w\u0903x nearby", "w", false], // a vowel sign (a spacing mark)
  ["cafe\u0301 open", "cafe", true], // a decomposed accent
  ["\u304C\u3093\u3070\u308B and more", "\u304B\u3093\u3070\u308B", true], // がんばる asked as かんばる
];

for (const index of [true, false]) {
  Deno.test(`find through ${index ? "the index" : "--no-index"}: marks split no word and join none`, async () => {
    const { t } = setup();
    try {
      const sessions = sessionsSaying(t, "src/marked", MARKED.map(([text]) => text));
      for (const [i, [text, word, expected]] of MARKED.entries()) {
        const found = ids(await find(t, [word], { index }));
        assert.deepEqual(found, expected ? [sessions[i]] : [], `${word} in ${text}`);
      }
    } finally {
      t.cleanup();
    }
  });
}

for (const index of [true, false]) {
  const how = index ? "the index" : "--no-index";

  Deno.test(`find through ${how}: assistant text, a Bash command, tool output only when asked`, async () => {
    const { t, history } = setup();
    try {
      const quokka = await find(t, ["quokka migration"], { index });
      assert.deepEqual(ids(quokka), [history.alpha.id]);
      assert.equal(quokka.results[0].matches[0].role, "assistant");
      assert.match(quokka.results[0].matches[0].snippet, /quokka migration plan/);
      const command = await find(t, ["wombatdb"], { index });
      assert.deepEqual(ids(command), [history.alpha.id]);
      assert.equal(command.results[0].matches[0].role, "tool");
      assert.deepEqual(ids(await find(t, ["zebrafish"], { index })), []);
      const output = await find(t, ["zebrafish"], { index, toolOutput: true });
      assert.deepEqual(ids(output), [history.alpha.id]);
      assert.equal(output.results[0].matches[0].role, "tool_output");
    } finally {
      t.cleanup();
    }
  });

  Deno.test(`find through ${how}: role, project and since filters`, async () => {
    const { t, history } = setup();
    try {
      assert.deepEqual(ids(await find(t, ["quokka"], { index, role: ["user"] })), []);
      assert.deepEqual(ids(await find(t, ["quokka"], { index, role: ["assistant"] })), [
        history.alpha.id,
      ]);
      const both = await find(t, ["ocelot"], { index });
      assert.deepEqual(ids(both), [history.alpha.id, history.beta.id], "recent first");
      const beta = await find(t, ["ocelot"], { index, project: history.beta.cwd });
      assert.deepEqual(ids(beta), [history.beta.id]);
      assert.deepEqual(ids(await find(t, ["ocelot"], { index, since: parseSince("7d")! })), [
        history.alpha.id,
      ]);
      assert.deepEqual(
        ids(await find(t, ["ocelot"], { index, since: parseSince("2026-09-01")! })).length,
        2,
      );
    } finally {
      t.cleanup();
    }
  });

  Deno.test(`find through ${how}: registered number and DESC, else the session's own title`, async () => {
    const { t, history } = setup();
    try {
      const json = await find(t, ["ocelot"], { index });
      const [alpha, beta] = json.results;
      assert.deepEqual([alpha.registered, alpha.title, alpha.dir], [
        1,
        "Alpha work",
        history.alpha.cwd,
      ]);
      assert.deepEqual([beta.registered, beta.title, beta.dir], [
        null,
        "Platypus deploy",
        history.beta.cwd,
      ]);
      assert.equal(beta.transcript, history.beta.path);
      assert.equal(beta.lastActivity?.slice(0, 10), "2026-10-01");
      const narwhal = await find(t, ["narwhal"], { index });
      assert.deepEqual(ids(narwhal), [history.beta.id], "a subagent's text counts for its session");
      const manatee = await find(t, ["manatee"], { index });
      assert.deepEqual(
        ids(manatee),
        [history.beta.id],
        "an old top-level agent file too; not notes",
      );
    } finally {
      t.cleanup();
    }
  });
}

Deno.test("find: phrases, prefixes and --regex", async () => {
  const { t, history } = setup();
  try {
    assert.deepEqual(ids(await find(t, ["migration quokka"])), [], "a phrase keeps its order");
    assert.deepEqual(ids(await find(t, ["migration", "quokka"])), [history.alpha.id]);
    assert.deepEqual(ids(await find(t, ["platyp*"])), [history.beta.id]);
    assert.deepEqual(ids(await find(t, ["platyp"])), [], "without * a word is whole");
    assert.deepEqual(ids(await find(t, ["wom.at[a-z]+"], { regex: true })), [history.alpha.id]);
    assert.deepEqual(ids(await find(t, ["WOMBAT[a-z]+"], { regex: true })), [], "case counts");
    assert.deepEqual(ids(await find(t, ["WOMBAT[A-Z]+"], { regex: true, ignoreCase: true })), [
      history.alpha.id,
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("find keeps up: appended lines, a half-written line, truncation, replacement, deletion", async () => {
  const { t, history } = setup();
  try {
    const first = await find(t, ["ocelot"]);
    assert.equal(first.indexed?.files, 4, "two sessions, a subagent, an old agent file; not notes");
    const more = new TranscriptBuilder({ cwd: history.alpha.cwd, sessionId: history.alpha.id })
      .prompt("now the capybara report");
    Deno.writeTextFileSync(history.alpha.path, more.toString(), { append: true });
    const appended = await find(t, ["capybara"]);
    assert.deepEqual(ids(appended), [history.alpha.id]);
    assert.equal(appended.indexed?.files, 1, "only the grown file is read");
    assert.equal(appended.indexed?.bytes, new TextEncoder().encode(more.toString()).length);
    assert.deepEqual(ids(await find(t, ["quokka"])), [history.alpha.id], "old text kept");

    const half = new TranscriptBuilder({ cwd: history.alpha.cwd, sessionId: history.alpha.id })
      .prompt("the axolotl question").toString().trimEnd();
    Deno.writeTextFileSync(history.alpha.path, half.slice(0, -20), { append: true });
    assert.deepEqual(ids(await find(t, ["axolotl"])), [], "a half-written line waits");
    Deno.writeTextFileSync(history.alpha.path, half.slice(-20) + "\n", { append: true });
    assert.deepEqual(ids(await find(t, ["axolotl"])), [history.alpha.id], "complete now");

    // Rewritten in place, shorter: the old text must go.
    const rewritten = new TranscriptBuilder({ cwd: history.alpha.cwd, sessionId: history.alpha.id })
      .prompt("a fresh start about llamas");
    Deno.writeTextFileSync(history.alpha.path, rewritten.toString());
    assert.deepEqual(ids(await find(t, ["quokka"])), []);
    assert.deepEqual(ids(await find(t, ["llamas"])), [history.alpha.id]);

    // Replaced by another file, larger than the indexed part: the old text must go too.
    const replacement = new TranscriptBuilder({ cwd: history.beta.cwd, sessionId: history.beta.id })
      .prompt("entirely new: the gecko plan, ".repeat(40));
    Deno.writeTextFileSync(`${history.beta.path}.new`, replacement.toString());
    Deno.renameSync(`${history.beta.path}.new`, history.beta.path);
    assert.deepEqual(ids(await find(t, ["platypus"])), []);
    assert.deepEqual(ids(await find(t, ["gecko"])), [history.beta.id]);

    Deno.removeSync(history.alpha.path);
    assert.deepEqual(ids(await find(t, ["llamas"])), [], "a deleted transcript drops out");
    assert.deepEqual(ids(await find(t, ["narwhal"])), [history.beta.id], "the subagent stays");
  } finally {
    t.cleanup();
  }
});

Deno.test("find notices a file rewritten in place with longer content", async () => {
  const { t, history } = setup();
  try {
    await find(t, ["ocelot"]);
    const size = Deno.statSync(history.alpha.path).size;
    const other = new TranscriptBuilder({ cwd: history.alpha.cwd, sessionId: history.alpha.id });
    while (other.toString().length <= size) other.prompt("the meerkat plan, again and again");
    const file = Deno.openSync(history.alpha.path, { write: true });
    file.writeSync(new TextEncoder().encode(other.toString()));
    file.close();
    assert.deepEqual(ids(await find(t, ["quokka"])), [], "the bytes before the old end changed");
    assert.deepEqual(ids(await find(t, ["meerkat"])), [history.alpha.id]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a corrupt or foreign index is rebuilt with a one-line note", async () => {
  const { t, history } = setup();
  try {
    const path = findIndexPath(t.ctx.paths);
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    Deno.writeTextFileSync(path, "this is not a database, just text ".repeat(200));
    assert.deepEqual(ids(await find(t, ["quokka"])), [history.alpha.id]);
    assert.match(t.stderr(), /search index was damaged; rebuilding it/);
    const db = new DatabaseSync(path);
    db.exec("UPDATE meta SET value = '0' WHERE key = 'version'");
    db.close();
    assert.deepEqual(ids(await find(t, ["quokka"])), [history.alpha.id]);
    assert.match(t.stderr(), /search index is from another version of claudecm; rebuilding it/);
  } finally {
    t.cleanup();
  }
});

Deno.test("an index whose tables a crash broke is rebuilt too, not an internal error", async () => {
  for (const damage of ["a table dropped", "FTS5's config page zeroed"]) {
    const { t, history } = setup();
    try {
      assert.deepEqual(ids(await find(t, ["quokka"])), [history.alpha.id]);
      const path = findIndexPath(t.ctx.paths);
      const db = new DatabaseSync(path);
      if (damage === "a table dropped") db.exec("DROP TABLE docs");
      else {
        // Opening docs_fts then fails in FTS5's constructor ("vtable constructor failed").
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        const page = Number(db.prepare("PRAGMA page_size").get()!.page_size);
        const root = Number(
          db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'docs_fts_config'").get()!
            .rootpage,
        );
        const file = Deno.openSync(path, { write: true });
        file.seekSync((root - 1) * page, Deno.SeekMode.Start);
        file.writeSync(new Uint8Array(page));
        file.close();
      }
      db.close();
      assert.deepEqual(ids(await find(t, ["quokka"])), [history.alpha.id], damage);
      assert.match(t.stderr(), /search index was damaged; rebuilding it/);
      assert.deepEqual(ids(await find(t, ["ocelot"])), [history.alpha.id, history.beta.id]);
    } finally {
      t.cleanup();
    }
  }
});

Deno.test("find --no-index writes nothing; the indexed find writes only the index", async () => {
  const { t } = setup();
  try {
    const before = treeState(t.home);
    await find(t, ["ocelot"], { index: false });
    await find(t, ["ocelot"], { regex: true });
    assert.deepEqual(treeState(t.home), before);
    await find(t, ["ocelot"]);
    const added = treeState(t.home).filter((line) => !before.includes(line))
      .map((line) => line.split(" ")[0]);
    const cm = slashed(t.ctx.paths.cmHome.slice(t.home.length));
    assert.ok(added.length > 0);
    for (const path of added) {
      assert.ok(path === cm || path.startsWith(`${cm}/find-index.db`), `unexpected write: ${path}`);
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("find: bad filters are usage errors", async () => {
  const { t } = setup();
  try {
    // --role and --since are the command table's to parse (tests/find_options_test.ts).
    await assert.rejects(() => runFind(t.ctx, { terms: ["--"] }), /nothing to search for/);
    await assert.rejects(() => runFind(t.ctx, { terms: ["("], regex: true }), /--regex/);
    const file = join(t.home, "notes.txt");
    Deno.writeTextFileSync(file, "a file, not a folder\n");
    await assert.rejects(
      () => runFind(t.ctx, { terms: ["x"], project: file }),
      /--project must name a folder/,
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("find forgets text rewritten in place: same size, or grown with an earlier change", async () => {
  const { t, history } = setup();
  try {
    assert.deepEqual(ids(await find(t, ["quokka"])), [history.alpha.id]);
    const overwrite = (from: string, to: string) => {
      const bytes = Deno.readFileSync(history.alpha.path);
      const at = new TextDecoder().decode(bytes).indexOf(from);
      const file = Deno.openSync(history.alpha.path, { write: true });
      file.seekSync(at, Deno.SeekMode.Start);
      file.writeSync(new TextEncoder().encode(to));
      file.close();
    };
    const later = (seconds: number) => {
      const time = new Date(Date.now() + seconds * 1000);
      Deno.utimeSync(history.alpha.path, time, time);
    };
    // Same inode, same size, a new mtime: the secret is far from the old end.
    overwrite("quokka", "xxxxxx");
    later(10);
    assert.deepEqual(ids(await find(t, ["quokka"], { index: false })), []);
    assert.deepEqual(ids(await find(t, ["quokka"])), [], "the index agrees with --no-index");
    assert.deepEqual(ids(await find(t, ["xxxxxx"])), [history.alpha.id]);
    // Grown, and an earlier byte changed too: not an append.
    overwrite("xxxxxx", "yyyyyy");
    const more = new TranscriptBuilder({ cwd: history.alpha.cwd, sessionId: history.alpha.id })
      .prompt("now the tapir report");
    Deno.writeTextFileSync(history.alpha.path, more.toString(), { append: true });
    later(20);
    assert.deepEqual(ids(await find(t, ["xxxxxx"])), []);
    assert.deepEqual(ids(await find(t, ["yyyyyy"])), [history.alpha.id]);
    assert.deepEqual(ids(await find(t, ["tapir"])), [history.alpha.id]);
    const db = new DatabaseSync(findIndexPath(t.ctx.paths));
    const rows = db.prepare(
      "SELECT count(*) AS n FROM docs d JOIN files f ON f.id = d.id >> 32 WHERE f.path = ?",
    ).get(history.alpha.path)?.n;
    const texts = db.prepare("SELECT count(*) AS n FROM docs_fts").get()?.n;
    const docs = db.prepare("SELECT count(*) AS n FROM docs").get()?.n;
    db.close();
    const fresh = await find(t, ["tapir"], { index: false });
    assert.equal(fresh.results.length, 1);
    assert.equal(rows, 5, "the old rows were deleted, not kept beside the new ones");
    assert.equal(texts, docs, "and their text");
  } finally {
    t.cleanup();
  }
});

Deno.test("find forgets text rewritten at the same size with its old mtime put back (cp -p, touch -r)", async () => {
  const { t, history } = setup();
  try {
    assert.deepEqual(ids(await find(t, ["quokka"])), [history.alpha.id]);
    const { mtime } = Deno.statSync(history.alpha.path);
    // The change time is kept to the second on some systems: let one pass.
    await new Promise((done) => setTimeout(done, 1_100));
    const text = Deno.readTextFileSync(history.alpha.path);
    Deno.writeTextFileSync(history.alpha.path, text.replace("quokka", "xxxxxx"));
    Deno.utimeSync(history.alpha.path, mtime!, mtime!);
    assert.deepEqual(ids(await find(t, ["quokka"], { index: false })), []);
    assert.deepEqual(ids(await find(t, ["quokka"])), [], "the index agrees with --no-index");
    assert.deepEqual(ids(await find(t, ["xxxxxx"])), [history.alpha.id]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a session's newest matches are the same through the index and the scan, subagents and all", async () => {
  const { t, history } = setup();
  try {
    const sessionId = crypto.randomUUID();
    const lineAt = (time: string, say: "prompt" | "text") => {
      const start = new Date(`2026-10-03T${time}:00Z`);
      const builder = new TranscriptBuilder({ cwd: history.beta.cwd, sessionId, start });
      return (say === "prompt"
        ? builder.prompt(`capybara at ${time}`)
        : builder.text(`capybara ${time}`))
        .toString();
    };
    const agentDir = join(history.beta.dir, sessionId, "subagents");
    Deno.mkdirSync(agentDir, { recursive: true });
    Deno.writeTextFileSync(
      join(history.beta.dir, `${sessionId}.jsonl`),
      ["10:00", "10:30", "11:30"].map((time) => lineAt(time, "prompt")).join(""),
    );
    // Read after the main transcript, though its lines interleave with it in time.
    Deno.writeTextFileSync(
      join(agentDir, "agent-c1.jsonl"),
      ["10:15", "11:00", "12:00"].map((time) => lineAt(time, "text")).join(""),
    );
    const times = (json: FindJson) => json.results[0].matches.map((m) => m.timestamp);
    const indexed = times(await find(t, ["capybara"]));
    assert.deepEqual(indexed.map((time) => time?.slice(11, 16)), ["12:00", "11:30", "11:00"]);
    assert.deepEqual(times(await find(t, ["capybara"], { index: false })), indexed);
  } finally {
    t.cleanup();
  }
});

Deno.test("--project keeps to its folder when another folder's path makes the same project key", async () => {
  const { t } = setup();
  try {
    const dash = makeFolder(t.home, "work/my-app");
    const underscore = makeFolder(t.home, "work/my_app");
    assert.equal(keyDirOf(t.ctx, dash), keyDirOf(t.ctx, underscore), "one key for both");
    const ids: Record<string, string> = {};
    for (const cwd of [dash, underscore]) {
      const builder = new TranscriptBuilder({ cwd, start: new Date("2026-10-05T10:00:00Z") })
        .prompt("the gerenuk release");
      Deno.mkdirSync(keyDirOf(t.ctx, cwd), { recursive: true });
      Deno.writeTextFileSync(
        join(keyDirOf(t.ctx, cwd), `${builder.sessionId}.jsonl`),
        builder.toString(),
      );
      ids[cwd] = builder.sessionId;
    }
    for (const index of [true, false]) {
      for (const cwd of [dash, underscore]) {
        const found = await find(t, ["gerenuk"], { index, project: cwd });
        assert.deepEqual(
          found.results.map((r) => r.sessionId),
          [ids[cwd]],
          `${cwd}, index: ${index}`,
        );
      }
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("a session /cd moved is shown and adopted in the folder it moved to, both ways", async () => {
  const { t } = setup();
  try {
    const gone = join(t.home, "src", "old worktree");
    const now = makeFolder(t.home, "src/new place");
    const builder = new TranscriptBuilder({ cwd: gone, start: new Date("2026-10-04T10:00:00Z") })
      .prompt("the aardvark migration");
    // As claude 2.1.332 leaves it: in the new folder's key, with a `relocated` record.
    const moved = `${builder.toString()}${
      JSON.stringify({ type: "relocated", sessionId: builder.sessionId, relocatedCwd: now })
    }\n`;
    Deno.mkdirSync(keyDirOf(t.ctx, now), { recursive: true });
    Deno.writeTextFileSync(join(keyDirOf(t.ctx, now), `${builder.sessionId}.jsonl`), moved);
    // A subagent's file written before the /cd records the old folder; it moved along.
    const agents = join(keyDirOf(t.ctx, now), builder.sessionId, "subagents");
    Deno.mkdirSync(agents, { recursive: true });
    new TranscriptBuilder({ cwd: gone, sessionId: builder.sessionId })
      .prompt("look for the pangolin").write(join(agents, "agent-p1.jsonl"));
    for (const index of [true, false]) {
      const [found] = (await find(t, ["aardvark"], { index })).results;
      assert.equal(found.dir, now, `index: ${index}`);
      const inProject = await find(t, ["pangolin"], { index, project: now });
      assert.deepEqual(inProject.results.map((r) => r.sessionId), [builder.sessionId]);
      // And it is no longer the old folder's, by any of its files.
      Deno.mkdirSync(gone, { recursive: true });
      for (const word of ["pangolin", "aardvark"]) {
        const old = await find(t, [word], { index, project: gone });
        assert.deepEqual(old.results, [], `${word}, index: ${index}`);
      }
      Deno.removeSync(gone);
    }
    const out = createMemoryOutput();
    t.ctx.out = out;
    await runAdopt(t.ctx, { json: true });
    const candidates = JSON.parse(out.text()).candidates as Array<
      { sessionId: string; dir: string }
    >;
    assert.equal(candidates.find((c) => c.sessionId === builder.sessionId)?.dir, now);
  } finally {
    t.cleanup();
  }
});

Deno.test("an old agent-*.jsonl replaced by one that names another session is filed under the new one", async () => {
  const { t, history } = setup();
  try {
    const agent = join(history.beta.dir, "agent-old1.jsonl");
    assert.deepEqual(ids(await find(t, ["manatee"])), [history.beta.id]);
    // A new file at that name (a new inode), naming alpha's session and bigger than before.
    const other = new TranscriptBuilder({
      cwd: history.alpha.cwd,
      sessionId: history.alpha.id,
      start: new Date("2026-10-02T10:00:00Z"),
    }).prompt("check the manatee feed again, and the dugong one");
    while (other.toString().length <= Deno.statSync(agent).size) other.prompt("more dugong");
    Deno.writeTextFileSync(`${agent}.new`, other.toString());
    Deno.renameSync(`${agent}.new`, agent);
    const scanned = ids(await find(t, ["dugong"], { index: false }));
    assert.deepEqual(scanned, [history.alpha.id]);
    assert.deepEqual(ids(await find(t, ["dugong"])), scanned, "the index agrees with --no-index");
  } finally {
    t.cleanup();
  }
});

Deno.test("a transcript that fails mid-read is left out with no rows kept, and read whole next time", async () => {
  const { t, history } = setup();
  let failing: ReturnType<typeof failReadsAfter> | undefined;
  try {
    const big = new TranscriptBuilder({ cwd: history.alpha.cwd, sessionId: history.alpha.id });
    for (let i = 0; i < 400; i++) big.text(`the tamarin paragraph ${i} ${"padding ".repeat(60)}`);
    Deno.writeTextFileSync(history.alpha.path, big.toString(), { append: true });
    failing = failReadsAfter(history.alpha.path, 2);
    const first = await find(t, ["ocelot"]);
    assert.deepEqual(ids(first), [history.beta.id], "alpha was left out");
    assert.match(t.stderr(), /1 transcript\(s\) could not be read/);
    const db = new DatabaseSync(findIndexPath(t.ctx.paths));
    const rows = db.prepare("SELECT count(*) AS n FROM files WHERE path = ?").get(
      history.alpha.path,
    )
      ?.n;
    const texts = db.prepare("SELECT count(*) AS n FROM docs_fts").get()?.n;
    const docs = db.prepare("SELECT count(*) AS n FROM docs").get()?.n;
    db.close();
    assert.equal(rows, 0, "no row for the half-read file");
    assert.equal(texts, docs, "and none of its text");
    failing.restore();
    assert.deepEqual(ids(await find(t, ["tamarin"])), [history.alpha.id], "read whole next time");
    assert.deepEqual(ids(await find(t, ["ocelot"])), [history.alpha.id, history.beta.id]);
  } finally {
    failing?.restore();
    t.cleanup();
  }
});
