import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { findIndexPath } from "../lib/app/find/index_search.ts";
import { generateTranscript } from "../scripts/gen_transcript.ts";
import { writeFindHistory } from "./helpers/find_fixtures.ts";
import { claudecmCommand, runClaudecm } from "./helpers/run_cli.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { treeState } from "./helpers/tree_state.ts";

function setup() {
  const t = createTestContext();
  const history = writeFindHistory(t.ctx, t.home);
  // Only t.env's homes: HOME, and USERPROFILE, which is Windows' home.
  const run = (args: string[], stdin = "") => runClaudecm(args, { env: t.env, stdin });
  return { t, history, run };
}

Deno.test("find and adopt answer --help with their options and examples", async () => {
  const { t, run } = setup();
  try {
    const find = await run(["find", "--help"]);
    assert.equal(find.code, 0);
    for (const text of ["--role", "--project", "--since", "--limit", "--tool-output", "--regex"]) {
      assert.ok(find.stdout.includes(text), text);
    }
    assert.match(find.stdout, /--no-index/);
    assert.match(find.stdout, /-i, --ignore-case/);
    assert.match(find.stdout, /--regex matches case-sensitively unless -i/);
    const regex = await run(["find", "--json", "--regex", "WOMBATDB"]);
    assert.deepEqual(JSON.parse(regex.stdout).results, [], regex.stderr);
    const folded = await run(["find", "--json", "-i", "--regex", "WOMBATDB"]);
    assert.equal(JSON.parse(folded.stdout).results.length, 1, folded.stderr);
    assert.match(find.stdout, /claudecm find "connection refused"/);
    const adopt = await run(["adopt", "--help"]);
    assert.equal(adopt.code, 0);
    assert.match(adopt.stdout, /--dry-run/);
    const missing = await run(["find"]);
    assert.equal(missing.code, 2);
  } finally {
    t.cleanup();
  }
});

Deno.test("find end to end: --json never asks; without a terminal it lists and ends", async () => {
  const { t, history, run } = setup();
  try {
    const json = await run(["find", "--json", "quokka"]);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout);
    assert.deepEqual(parsed.results.map((r: { sessionId: string }) => r.sessionId), [
      history.alpha.id,
    ]);
    assert.deepEqual(Object.keys(parsed.indexed), ["files", "bytes", "ms"]);
    const text = await run(["find", "ocelot"], "1\n");
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /1\. Alpha work {2}\(#1, Nov 29\)/);
    assert.match(text.stdout, /2\. Platypus deploy {2}\(not in list, Oct 1\)/);
    assert.doesNotMatch(text.stdout, /Resume which/);
    assert.ok(!text.stdout.includes("\x1b["), "no colour off a terminal");
  } finally {
    t.cleanup();
  }
});

Deno.test("find --no-index and adopt --dry-run write nothing in HOME", async () => {
  const { t, run } = setup();
  try {
    const before = treeState(t.home);
    const scan = await run(["find", "--no-index", "--json", "platypus"]);
    assert.equal(scan.code, 0, scan.stderr);
    assert.equal(JSON.parse(scan.stdout).indexed, null);
    const dry = await run(["adopt", "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /Platypus deploy/);
    assert.deepEqual(treeState(t.home), before);
  } finally {
    t.cleanup();
  }
});

Deno.test("adopt --all end to end, and a re-run adds nothing", async () => {
  const { t, history, run } = setup();
  try {
    Deno.writeTextFileSync(join(t.home, ".claudecm", "machine-name.txt"), "desk\n");
    const first = await run(["adopt", "--all"]);
    assert.equal(first.code, 0, first.stderr);
    const registry = Deno.readTextFileSync(t.ctx.paths.registryFile);
    assert.equal(
      registry,
      `${history.alpha.id}|${history.alpha.cwd}|Alpha work|\n` +
        `${history.beta.id}|${history.beta.cwd}|Platypus deploy|\n`,
    );
    const again = await run(["adopt", "--all", "--json"]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).adopted, []);
    assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), registry);
  } finally {
    t.cleanup();
  }
});

Deno.test("two finds at once build one index, with nothing indexed twice", async () => {
  const { t, history, run } = setup();
  try {
    // Enough bytes that the two first builds overlap.
    generateTranscript(join(history.alpha.dir, `${crypto.randomUUID()}.jsonl`), {
      bytes: 6_000_000,
      cwd: history.alpha.cwd,
    });
    const [a, b] = await Promise.all([
      run(["find", "--json", "ocelot"]),
      run(["find", "--json", "ocelot"]),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.deepEqual(JSON.parse(a.stdout).results, JSON.parse(b.stdout).results);
    const db = new DatabaseSync(findIndexPath(t.ctx.paths));
    const docs = db.prepare("SELECT count(*) AS n FROM docs").get()?.n;
    const distinct = db.prepare(
      "SELECT count(*) AS n FROM (SELECT DISTINCT id >> 32, line_at, part FROM docs)",
    ).get()?.n;
    const files = db.prepare("SELECT count(*) AS n FROM files").get()?.n;
    const check = db.prepare("PRAGMA integrity_check").get()?.integrity_check;
    db.close();
    assert.equal(files, 5);
    assert.equal(docs, distinct, "no piece of text indexed twice");
    assert.equal(check, "ok");
  } finally {
    t.cleanup();
  }
});

Deno.test("three adopt --all at once: each reports what it added, together what was added", async () => {
  const { t } = setup();
  try {
    Deno.writeTextFileSync(join(t.home, ".claudecm", "machine-name.txt"), "desk\n");
    const env = t.env;
    const rowsBefore = registryRows(t.ctx.paths.registryFile);
    // Holding the lock lets all three list the same candidates before any of them writes.
    const lock = Deno.openSync(t.ctx.paths.lockFile, { read: true, write: true, create: true });
    lock.lockSync(true);
    const children = [0, 1, 2].map(() =>
      claudecmCommand(["adopt", "--all"], { env, noStdin: true }).spawn()
    );
    const outputs = children.map((child) => readUntil(child.stdout, /Sessions not in the list/));
    await Promise.all(outputs.map((output) => output.seen));
    lock.close();
    const texts = await Promise.all(outputs.map((output) => output.all));
    for (const child of children) {
      const status = await child.status;
      assert.equal(status.code, 0);
      await child.stderr.cancel();
    }
    const added = texts.map((text) => Number(/Added (\d+) session/.exec(text)?.[1] ?? 0));
    const candidates = Number(/Sessions not in the list \((\d+)\)/.exec(texts[0])?.[1]);
    assert.ok(candidates > 0);
    assert.deepEqual(added.toSorted(), [0, 0, candidates], texts.join("\n---\n"));
    assert.equal(
      texts.filter((text) => /Nothing added: \d+ w\w+ added meanwhile/.test(text)).length,
      2,
    );
    assert.equal(registryRows(t.ctx.paths.registryFile), rowsBefore + candidates);
  } finally {
    t.cleanup();
  }
});

function registryRows(path: string): number {
  try {
    return Deno.readTextFileSync(path).split("\n").filter((line) => line.trim() !== "").length;
  } catch {
    return 0;
  }
}

/** A child's stdout: `seen` settles once `marker` has been printed, `all` at EOF. */
function readUntil(
  stream: ReadableStream<Uint8Array>,
  marker: RegExp,
): { seen: Promise<void>; all: Promise<string> } {
  const { promise: seen, resolve: markSeen } = Promise.withResolvers<void>();
  const all = (async () => {
    let text = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      if (marker.test(text)) markSeen();
    }
    markSeen();
    return text;
  })();
  return { seen, all };
}
