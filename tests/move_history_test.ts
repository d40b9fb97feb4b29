// Issue 30 item 8: claude's prompt history (history.jsonl, the up-arrow) follows a move: the
// `project` of OLD's lines and its subfolders' names NEW, every other byte stays, and a line
// claude appends while the file is rewritten is never lost.
import assert from "node:assert/strict";
import { join } from "node:path";
import { inMoveWorld } from "./helpers/move_world.ts";
import { moveHistoryProjects } from "../lib/core/history_lines.ts";
import { historyFileOf, moveHistoryLines } from "../lib/store/history_store.ts";
// Whether the file read may be held open through the rename is the host's: ask as the host.
import { hostOs } from "../lib/platform/os.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One line as claude 2.1.332 writes it (its history schema: display, pastedContents, timestamp, project, sessionId). */
function promptLine(display: string, project: string, timestamp = 1_765_000_000_000): string {
  return JSON.stringify({ display, pastedContents: {}, timestamp, project, sessionId: "s-1" });
}

Deno.test("history lines: OLD's and its subfolders' project moves, every other byte stays", () => {
  const old = "/w/app";
  const lines = [
    promptLine("first", old),
    promptLine("in sub", "/w/app/sub"),
    promptLine("sibling", "/w/app-web"),
    // Spacing, key order, escapes and a CR of someone else's writer stay as they are.
    `{ "project" : "\\/w\\/app" ,"display":"escaped ü"}\r`,
    "not json at all",
    '{"display":"no project"}',
    '{"display":"a number","project":7}',
    "",
    promptLine("last, no newline", old),
  ];
  const before = encoder.encode(lines.join("\n"));
  const { bytes, changed } = moveHistoryProjects(before, { from: old, to: "/w/new" }, "linux");
  assert.equal(changed, 4);
  assert.deepEqual(decoder.decode(bytes).split("\n"), [
    promptLine("first", "/w/new"),
    promptLine("in sub", "/w/new/sub"),
    lines[2],
    '{ "project" : "/w/new" ,"display":"escaped ü"}\r',
    ...lines.slice(4, 8),
    promptLine("last, no newline", "/w/new"),
  ]);
  const none = moveHistoryProjects(before, { from: "/elsewhere", to: "/w/new" }, "linux");
  assert.equal(none.changed, 0);
  assert.equal(none.bytes, before, "nothing to change: the very bytes");
});

Deno.test("move: history.jsonl follows, its plan counts the lines, a rerun has nothing to do", async () => {
  await inMoveWorld(async (world) => {
    const file = historyFileOf(world.paths);
    const text = [
      promptLine("main prompt", world.old),
      promptLine("sub prompt", world.sub),
      promptLine("web prompt", world.web),
    ].join("\n") + "\n";
    Deno.writeTextFileSync(file, text);
    world.moveAway();
    const dry = await world.run(["move", "--dry-run", world.old, world.renamed]);
    assert.match(dry.stdout, /Prompt history lines in .*history\.jsonl: 2/);
    assert.equal(Deno.readTextFileSync(file), text, "a dry run writes nothing");
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /2 prompt history line\(s\) follow it/);
    assert.equal(
      Deno.readTextFileSync(file),
      [
        promptLine("main prompt", world.renamed),
        promptLine("sub prompt", join(world.renamed, "sub")),
        promptLine("web prompt", world.web),
      ].join("\n") + "\n",
    );
    // Only the history left to move: the rerun moves it, then there is nothing.
    Deno.writeTextFileSync(file, promptLine("typed in OLD later", world.old) + "\n", {
      append: true,
    });
    const json = JSON.parse((await world.run(["move", "--json", world.old, world.renamed])).stdout);
    assert.deepEqual([json.status, json.historyLines], ["moved", 1]);
    assert.match((await world.run(["move", world.old, world.renamed])).stdout, /Nothing to do/);
  });
});

Deno.test("move: a pipe at history.jsonl refuses the move before anything moves", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    const file = historyFileOf(world.paths);
    assert.ok(new Deno.Command("mkfifo", { args: [file] }).outputSync().success);
    const registry = Deno.readTextFileSync(world.paths.registryFile);
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /history\.jsonl.*not a regular file/);
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), registry);
  });
});

/** A claude that appends prompts with no lock, as fast as it can, while the history is rewritten. */
const APPENDER = `
const file = Deno.args[0];
const pause = new Int32Array(new SharedArrayBuffer(4));
const stopped = () => { try { return Deno.statSync(file + ".stop").isFile; } catch { return false; } };
Deno.writeTextFileSync(file + ".started", "");
let i = 0;
for (; !stopped(); i++) {
  // A person types slower; a little pause spreads the lines over many rewrites.
  Atomics.wait(pause, 0, 0, 0.2);
  const line = JSON.stringify({ display: "late " + i, pastedContents: {}, timestamp: i, project: "/w/app" });
  const f = Deno.openSync(file, { append: true });
  f.writeSync(new TextEncoder().encode(line + "\\n"));
  f.close();
}
Deno.writeTextFileSync(file + ".done", String(i));
`;

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

Deno.test({
  name: "history rewrite: lines a claude appends meanwhile (no lock) are all kept, moved",
  // It appends far faster than a person types: Windows, where any growth is read again (no
  // rename over an open file), would give up after its attempts.
  ignore: Deno.build.os === "windows",
}, async () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-history-" });
  try {
    const file = join(dir, "history.jsonl");
    const script = join(dir, "appender.ts");
    Deno.writeTextFileSync(script, APPENDER);
    const early = Array.from({ length: 30_000 }, (_, i) => promptLine(`early ${i}`, "/w/app"));
    const MOVES = 8;
    for (let trial = 0; trial < 2; trial++) {
      Deno.writeTextFileSync(file, early.join("\n") + "\n");
      for (const marker of [".done", ".started", ".stop"]) {
        try {
          Deno.removeSync(file + marker);
        } catch {
          // First trial.
        }
      }
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-config", script, file],
        stdout: "null",
      }).spawn();
      while (!exists(`${file}.started`)) await new Promise((resolve) => setTimeout(resolve, 5));
      // Rewrite again and again while it appends, as a move meeting a busy claude would.
      for (let moves = 0; moves < MOVES; moves++) {
        const [from, to] = moves % 2 === 0 ? ["/w/app", "/w/new"] : ["/w/new", "/w/app"];
        moveHistoryLines(file, { from, to }, { os: "linux" });
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      Deno.writeTextFileSync(`${file}.stop`, "");
      assert.ok((await child.status).success);
      const LATE = Number(Deno.readTextFileSync(`${file}.done`));
      // Every line to one folder again, the late ones included.
      moveHistoryLines(file, { from: "/w/new", to: "/w/app" }, { os: "linux" });
      const lines = Deno.readTextFileSync(file).split("\n").filter((line) => line !== "");
      const late = lines.filter((line) => line.includes('"late '));
      assert.equal(
        late.length,
        LATE,
        `trial ${trial}: every late line kept, once`,
      );
      assert.equal(lines.length, early.length + LATE);
      assert.ok(lines.every((line) => JSON.parse(line).project === "/w/app"), "each line whole");
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("history rewrite: claude's own lock (history.jsonl.lock) is waited for briefly; a stale one taken over", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-history-" });
  try {
    const file = join(dir, "history.jsonl");
    const lock = `${file}.lock`;
    const write = () => Deno.writeTextFileSync(file, promptLine("p", "/w/app") + "\n");
    const move = () => moveHistoryLines(file, { from: "/w/app", to: "/w/new" }, { os: hostOs });
    // A claude holding it now: the rewrite waits, then goes ahead (it checks the file anyway)
    // and leaves claude's lock to claude.
    write();
    Deno.mkdirSync(lock);
    const started = Date.now();
    assert.equal(move(), 1);
    assert.ok(Date.now() - started >= 1500, "waited for the holder");
    assert.ok(exists(lock) || Deno.statSync(lock).isDirectory, "claude's lock left to claude");
    // One older than claude's 10 s stale limit: taken over at once and released after.
    write();
    const old = new Date(Date.now() - 60_000);
    Deno.utimeSync(lock, old, old);
    const quick = Date.now();
    assert.equal(move(), 1);
    assert.ok(Date.now() - quick < 1500, "a stale lock is not waited for");
    assert.throws(() => Deno.statSync(lock), Deno.errors.NotFound);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("history rewrite: a line appended after the read, or the file replaced, is never lost", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-history-" });
  try {
    const file = join(dir, "history.jsonl");
    const move = { from: "/w/app", to: "/w/new" };
    Deno.writeTextFileSync(file, promptLine("before", "/w/app") + "\n");
    // claude appends between the read and the rename: the line is carried over, moved too.
    let appended = false;
    const changed = moveHistoryLines(file, move, {
      os: hostOs,
      afterRead: () => {
        if (appended) return;
        appended = true;
        Deno.writeTextFileSync(file, promptLine("typed meanwhile", "/w/app") + "\n", {
          append: true,
        });
      },
    });
    assert.equal(changed, 2);
    assert.equal(
      Deno.readTextFileSync(file),
      promptLine("before", "/w/new") + "\n" + promptLine("typed meanwhile", "/w/new") + "\n",
    );
    // claude's retention prune replaces the file meanwhile: what it wrote is read again. (Not
    // on Windows, where renaming over the file the rewrite holds open is not to be relied on.)
    if (Deno.build.os === "windows") return;
    Deno.writeTextFileSync(file, promptLine("old", "/w/app") + "\n" + promptLine("kept", "/w/app"));
    let pruned = false;
    moveHistoryLines(file, move, {
      os: hostOs,
      afterRead: () => {
        if (pruned) return;
        pruned = true;
        Deno.writeTextFileSync(`${file}.prune`, promptLine("kept", "/w/app") + "\n");
        Deno.renameSync(`${file}.prune`, file);
      },
    });
    assert.equal(Deno.readTextFileSync(file), promptLine("kept", "/w/new") + "\n");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("history lines: a line that is not whole JSON stays byte for byte, even with OLD's project", () => {
  const old = "/w/app";
  const lines = [
    // A claude killed mid-write, junk after the object, a bad value, a bad escape in a key.
    `{"display":"cut short","project":"${old}"`,
    `{"display":"junk after","project":"${old}"} trailing`,
    `{"display":"bad value","project":"${old}","x":tru}`,
    `{"bad\\q":1,"project":"${old}"}`,
    `{"bad":"\\q","project":"${old}"}`,
    promptLine("whole", old),
  ];
  const before = encoder.encode(lines.join("\n") + "\n");
  const { bytes, changed } = moveHistoryProjects(before, { from: old, to: "/w/new" }, "linux");
  assert.equal(changed, 1);
  assert.deepEqual(decoder.decode(bytes).split("\n"), [
    ...lines.slice(0, 5),
    promptLine("whole", "/w/new"),
    "",
  ]);
  // A BOM an editor wrote before the first line: that line is still whole JSON.
  const bom = moveHistoryProjects(
    encoder.encode(`\uFEFF${promptLine("first", old)}\n`),
    { from: old, to: "/w/new" },
    "linux",
  );
  assert.deepEqual(bom.bytes, encoder.encode(`\uFEFF${promptLine("first", "/w/new")}\n`));
});

Deno.test("move: a history line claude could not have written refuses nothing and stays as it is", async () => {
  await inMoveWorld(async (world) => {
    const file = historyFileOf(world.paths);
    const odd = `{"bad\\q":1,"project":"${world.old}"}`;
    Deno.writeTextFileSync(file, [odd, promptLine("main prompt", world.old)].join("\n") + "\n");
    world.moveAway();
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /1 prompt history line\(s\) follow it/);
    assert.equal(
      Deno.readTextFileSync(file),
      [odd, promptLine("main prompt", world.renamed)].join("\n") + "\n",
    );
  });
});

Deno.test({
  name: "history rewrite through a link sweeps a killed rewrite's copy beside the real file",
  ignore: Deno.build.os === "windows",
}, () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-history-" });
  try {
    // A dotfile manager's link: the copy is made beside the file it leads to, under its name.
    Deno.mkdirSync(join(dir, "dotfiles"));
    const real = join(dir, "dotfiles", "history.jsonl");
    Deno.writeTextFileSync(real, promptLine("old", "/w/app") + "\n");
    const path = join(dir, "history.jsonl");
    Deno.symlinkSync(real, path);
    const left = `${real}.claudecm.tmp-999999999`;
    Deno.writeTextFileSync(left, "a killed rewrite's copy\n");
    assert.equal(moveHistoryLines(path, { from: "/w/app", to: "/w/new" }, { os: "linux" }), 1);
    assert.ok(Deno.lstatSync(path).isSymlink, "the link stays a link");
    assert.equal(Deno.readTextFileSync(real), promptLine("old", "/w/new") + "\n");
    assert.equal(exists(left), false, "the dead writer's copy went");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

// A claude that opened the file just before the rename writes its line just after: into the
// old file, which no name points at any more.
const LATE_WRITER = `
const [file, ready, delayMs] = Deno.args;
const f = Deno.openSync(file, { append: true });
Deno.writeTextFileSync(ready, "");
await new Promise((resolve) => setTimeout(resolve, Number(delayMs)));
f.writeSync(new TextEncoder().encode(JSON.stringify({ display: "just after", project: "/w/app" }) + "\\n"));
f.close();
`;

Deno.test({
  name: "history rewrite: a line written into the old file just after the rename is kept, moved",
  // Windows never renames over the held file: any growth is read again there.
  ignore: Deno.build.os === "windows",
}, async () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-history-" });
  try {
    const file = join(dir, "history.jsonl");
    const script = join(dir, "late_writer.ts");
    const ready = join(dir, "ready");
    Deno.writeTextFileSync(script, LATE_WRITER);
    Deno.writeTextFileSync(file, promptLine("early", "/w/app") + "\n");
    let child: Deno.ChildProcess | undefined;
    const changed = moveHistoryLines(file, { from: "/w/app", to: "/w/new" }, {
      os: "linux",
      afterRead: () => {
        child = new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", "--no-config", script, file, ready, "30"],
          stdout: "null",
        }).spawn();
        while (!exists(ready)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      },
    });
    assert.ok((await child!.status).success);
    const lines = Deno.readTextFileSync(file).split("\n").filter((line) => line !== "");
    assert.deepEqual(lines.map((line) => JSON.parse(line).display), ["early", "just after"]);
    assert.ok(lines.every((line) => JSON.parse(line).project === "/w/new"), "both moved");
    assert.equal(changed, 2);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
