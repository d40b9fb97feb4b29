import assert from "node:assert/strict";
import { join } from "node:path";
import { inMoveWorld, type MoveWorld } from "./helpers/move_world.ts";
import { createLaunchWorld, openInAnotherWindow } from "./helpers/launch_world.ts";
import { sessionId, writeTranscript } from "./helpers/claude_home.ts";
import { treeState } from "./helpers/tree_state.ts";
import { HAVE_PTY } from "./helpers/real_claude.ts";
import { typeInTerminal } from "./helpers/terminal_session.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { projectKey } from "../lib/core/project_key.ts";
import { archivedSessions, parseRegistry } from "../lib/core/registry.ts";
import { pathExists } from "../lib/core/fs_checks.ts";

/** Transcript bytes of each session before the move, by id. */
function transcripts(world: MoveWorld): Map<string, Uint8Array> {
  const where: Array<[string, string]> = [
    [world.ids.main, world.old],
    [world.ids.loose, world.old],
    [world.ids.sub, world.sub],
    [world.ids.web, world.web],
  ];
  return new Map(
    where.map((
      [id, dir],
    ) => [id, Deno.readFileSync(join(projectDirFor(world.paths, dir), `${id}.jsonl`))]),
  );
}

Deno.test("move: sessions of OLD and OLD/sub follow the folder (a relocated record each); the rest byte for byte", async () => {
  await inMoveWorld(async (world) => {
    const before = transcripts(world);
    const oldKeys = [projectDirFor(world.paths, world.old), projectDirFor(world.paths, world.sub)];
    world.moveAway();
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    const newSub = join(world.renamed, "sub");
    const newMain = projectDirFor(world.paths, world.renamed);
    const newSubKey = projectDirFor(world.paths, newSub);
    // Renamed, not rewritten: each ends with the record claude's own /cd appends (issue 30 item 9).
    const relocated = (id: string, dir: string) =>
      new TextEncoder().encode(
        JSON.stringify({ type: "relocated", sessionId: id, relocatedCwd: dir }) + "\n",
      );
    for (
      const [id, key, dir] of [
        [world.ids.main, newMain, world.renamed],
        [world.ids.loose, newMain, world.renamed],
        [world.ids.sub, newSubKey, newSub],
      ]
    ) {
      assert.deepEqual(
        Deno.readFileSync(join(key, `${id}.jsonl`)),
        new Uint8Array([...before.get(id)!, ...relocated(id, dir)]),
      );
    }
    assert.ok(pathExists(join(newSubKey, world.ids.sub, "subagents", "agent-a1.jsonl")));
    assert.equal(Deno.readTextFileSync(join(newMain, "memory", "MEMORY.md")), "# notes\n");
    for (const key of oldKeys) {
      const left = [...Deno.readDirSync(key)].map((e) => e.name);
      assert.deepEqual(left, [], `nothing left under ${key}`);
    }
    const web = join(projectDirFor(world.paths, world.web), `${world.ids.web}.jsonl`);
    assert.deepEqual(Deno.readFileSync(web), before.get(world.ids.web));
    const expectedRegistry = world.registryText
      .replace(`|${world.old}|Main`, `|${world.renamed}|Main`)
      .replace(`|${world.sub}/|`, `|${newSub}|`)
      .replace(`|${world.old}|Old idea`, `|${world.renamed}|Old idea`);
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), expectedRegistry);
    const expectedJson = world.claudeJsonText
      .replace(JSON.stringify(world.old), JSON.stringify(world.renamed))
      .replace(JSON.stringify(world.sub), JSON.stringify(newSub));
    assert.equal(Deno.readTextFileSync(world.paths.claudeJsonFile), expectedJson);
    // The moved sessions are the renamed folder's now for recover too, not only for the list.
    const recover = await world.run(["recover", "--json", "--limit", "10", "--cwd", world.renamed]);
    assert.equal(recover.code, 0, recover.stderr);
    assert.deepEqual(
      JSON.parse(recover.stdout).candidates.map((c: { id: string }) => c.id).sort(),
      [world.ids.main, world.ids.loose].sort(),
    );

    world.claudeScenario({ messages: ["back in the renamed folder"] });
    const resumed = await world.run(["resume", "1"]);
    assert.equal(resumed.code, 0, resumed.stderr);
    const [launch] = world.launches();
    assert.equal(launch.cwd, world.renamed);
    assert.deepEqual(launch.argv.slice(1, 3), ["--resume", world.ids.main]);
    const history = Deno.readFileSync(join(newMain, `${world.ids.main}.jsonl`));
    const original = before.get(world.ids.main)!;
    assert.ok(history.length > original.length, "the resume appended");
    assert.deepEqual(history.subarray(0, original.length), original, "full history kept");
  });
});

Deno.test("move: a finished move run again says there is nothing to do and writes nothing", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    assert.equal((await world.run(["move", world.old, world.renamed])).code, 0);
    const tree = treeState(world.dir);
    const again = await world.run(["move", world.old, world.renamed]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Nothing to do/);
    assert.deepEqual(
      treeState(world.dir).filter((l) => !l.includes(".lock")),
      tree.filter((l) => !l.includes(".lock")),
    );
  });
});

Deno.test("move --dry-run prints the plan and writes nothing", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    const tree = treeState(world.dir);
    const result = await world.run(["move", "--dry-run", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`${world.ids.sub}\\.jsonl`));
    assert.match(result.stdout, /Rows in sessions\.txt: 3/);
    assert.match(result.stdout, /Settings in .*\.claude\.json: 2/);
    assert.deepEqual(treeState(world.dir), tree);
    const json = await world.run(["move", "--dry-run", "--json", world.old, world.renamed]);
    const plan = JSON.parse(json.stdout);
    assert.equal(plan.status, "planned");
    assert.equal(plan.files.filter((f: { kind: string }) => f.kind === "transcript").length, 3);
    assert.deepEqual(treeState(world.dir), tree);
  });
});

Deno.test("move: a different file already at the target stops the move before anything changes", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    const target = projectDirFor(world.paths, join(world.renamed, "sub"));
    Deno.mkdirSync(target, { recursive: true });
    Deno.writeTextFileSync(join(target, `${world.ids.sub}.jsonl`), '{"type":"user"}\n');
    const tree = treeState(world.dir);
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^claudecm: not moved: .*already exists and differs/m);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.deepEqual(treeState(world.dir).filter((l) => !l.includes(".lock")), tree);
  });
});

Deno.test({
  name: "move: a NEW path sessions.txt cannot store stops the move before any file moves",
  // Windows forbids '|' in a file name.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await inMoveWorld(async (world) => {
      const piped = join(world.renamed, "..", "new|name");
      Deno.renameSync(world.old, piped);
      const tree = treeState(world.dir);
      for (const args of [["move", world.old, piped], ["move", "--dry-run", world.old, piped]]) {
        const result = await world.run(args);
        assert.equal(result.code, 1, result.stdout);
        assert.match(result.stderr, /^claudecm: not moved: cannot use the folder .*contains '\|'/m);
        assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
        assert.deepEqual(treeState(world.dir).filter((l) => !l.includes(".lock")), tree);
      }
    });
  },
});

Deno.test("move: a session whose line does not parse stops the move before anything moves", async () => {
  await inMoveWorld(async (world) => {
    const text = Deno.readTextFileSync(world.paths.registryFile);
    // Its token count '12k' does not parse: the line is kept as written and names OLD still.
    const broken = text.split("\n").map((line) =>
      line.startsWith(world.ids.main) ? `${line.split("|").slice(0, 3).join("|")}|12k` : line
    ).join("\n");
    Deno.writeTextFileSync(world.paths.registryFile, broken);
    world.moveAway();
    const tree = treeState(world.dir);
    for (let run = 0; run < 2; run++) {
      const result = await world.run(["move", world.old, world.renamed]);
      assert.equal(result.code, 1, result.stdout);
      assert.match(
        result.stderr,
        /not moved: line \d+ of the session list names session .* does not parse/,
      );
      assert.doesNotMatch(result.stderr, /halfway/);
      assert.deepEqual(treeState(world.dir).filter((l) => !l.includes(".lock")), tree);
    }
  });
});

for (const typed of ["through the link", "as resolved"] as const) {
  Deno.test({
    name: `move ${typed}: a row saved through a symlinked parent follows, files and all`,
    ignore: Deno.build.os === "windows", // symlinks there need a privilege
    fn: async () => {
      const world = createLaunchWorld();
      try {
        const real = join(world.dir, "real");
        const link = join(world.dir, "link");
        Deno.mkdirSync(join(real, "proj"), { recursive: true });
        Deno.symlinkSync(real, link);
        const guid = sessionId(0x201);
        // Claude keys on the realpath; the old scripts saved the shell's $PWD, through the link.
        const transcript = writeTranscript(world.paths, join(real, "proj"), guid);
        Deno.mkdirSync(join(projectDirFor(world.paths, join(real, "proj")), "memory"));
        Deno.writeTextFileSync(world.paths.registryFile, `${guid}|${link}/proj|Via link|\n`);
        Deno.renameSync(join(real, "proj"), join(real, "proj2"));
        const base = typed === "through the link" ? link : real;
        const result = await world.run(["move", join(base, "proj"), join(base, "proj2")]);
        assert.equal(result.code, 0, result.stderr);
        assert.equal(world.sessions()[0].dir, join(base, "proj2"));
        const moved = projectDirFor(world.paths, join(real, "proj2"));
        assert.ok(pathExists(join(moved, `${guid}.jsonl`)), "the transcript is under NEW's key");
        assert.ok(pathExists(join(moved, "memory")), "memory/ with it");
        assert.ok(!pathExists(transcript), "one live copy");
      } finally {
        world.cleanup();
      }
    },
  });
}

Deno.test({
  name: "move: OLD a symlink to a folder that holds NEW is refused, as NEW inside OLD is",
  ignore: Deno.build.os === "windows", // symlinks there need a privilege
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const data = join(world.dir, "data", "proj");
      const inner = join(data, "inner");
      Deno.mkdirSync(inner, { recursive: true });
      const link = join(world.dir, "link");
      Deno.symlinkSync(data, link);
      const [a, b] = [sessionId(0x301), sessionId(0x302)];
      writeTranscript(world.paths, data, a);
      writeTranscript(world.paths, inner, b);
      const registry = `${a}|${link}|Via link|\n${b}|${inner}|Inner work|\n`;
      Deno.writeTextFileSync(world.paths.registryFile, registry);
      const tree = treeState(world.dir);
      const result = await world.run(["move", link, inner]);
      assert.equal(result.code, 1, result.stdout);
      assert.match(result.stderr, /not moved: .*inside/);
      assert.equal(Deno.readTextFileSync(world.paths.registryFile), registry);
      assert.deepEqual(treeState(world.dir).filter((l) => !l.includes(".lock")), tree);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test("move: an identical copy already at the target is fine", async () => {
  await inMoveWorld(async (world) => {
    const source = join(projectDirFor(world.paths, world.old), `${world.ids.main}.jsonl`);
    world.moveAway();
    const target = projectDirFor(world.paths, world.renamed);
    Deno.mkdirSync(target, { recursive: true });
    Deno.copyFileSync(
      source.replace(world.old, world.old),
      join(target, `${world.ids.main}.jsonl`),
    );
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!pathExists(source), "one copy left, at the target");
  });
});

Deno.test("move: a session under OLD that is running refuses the move", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    openInAnotherWindow(world, world.ids.sub);
    const tree = treeState(world.home);
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /not moved: session .* is running/);
    assert.deepEqual(treeState(world.home), tree);
  });
});

Deno.test("move: refuses NEW inside OLD, and NEW sharing its key with another folder", async () => {
  await inMoveWorld(async (world) => {
    const inside = await world.run(["move", world.old, world.sub]);
    assert.equal(inside.code, 1);
    assert.match(inside.stderr, /inside/);
    world.moveAway();
    // `work/app.web` and `work/app-web` encode to one key.
    const twin = join(world.dir, "work", "app.web");
    Deno.renameSync(world.renamed, twin);
    const tree = treeState(world.home);
    const collision = await world.run(["move", world.old, twin]);
    assert.equal(collision.code, 1);
    assert.match(collision.stderr, /share the project key/);
    assert.deepEqual(treeState(world.home), tree);
  });
});

Deno.test("move WORKTREE REPO: a deleted worktree's sessions go to the main checkout", async () => {
  await inMoveWorld(async (world) => {
    const repo = world.web;
    const worktree = join(repo, ".claude", "worktrees", "fix-1");
    Deno.mkdirSync(worktree, { recursive: true });
    const folder = projectDirFor(world.paths, worktree);
    Deno.mkdirSync(folder, { recursive: true });
    const id = "77777777-0000-4000-8000-000000000077";
    Deno.writeTextFileSync(
      join(folder, `${id}.jsonl`),
      JSON.stringify({ type: "user", cwd: worktree }) + "\n",
    );
    Deno.writeTextFileSync(world.paths.registryFile, `${id}|${worktree}|Fix one|\n`);
    Deno.removeSync(worktree, { recursive: true });
    const result = await world.run(["move", worktree, repo]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(pathExists(join(projectDirFor(world.paths, repo), `${id}.jsonl`)));
    const registry = parseRegistry(Deno.readTextFileSync(world.paths.registryFile));
    assert.equal(archivedSessions(registry).length, 0);
    assert.equal(world.sessions()[0].dir, repo);
  });
});

Deno.test("move: the vault's copies follow the rows (<vaultDir>/<key>/<guid>.jsonl and <guid>/)", async () => {
  await inMoveWorld(async (world) => {
    const vault = (dir: string) => join(world.paths.vaultDir, projectKey(dir));
    const oldVault = vault(world.old);
    Deno.mkdirSync(join(oldVault, world.ids.archived, "subagents"), { recursive: true });
    Deno.writeTextFileSync(join(oldVault, `${world.ids.archived}.jsonl`), '{"type":"user"}\n');
    Deno.writeTextFileSync(join(oldVault, world.ids.archived, "subagents", "a.jsonl"), "{}\n");
    // A replaced transcript's older generation (vault_file_sync.ts) travels too.
    Deno.writeTextFileSync(join(oldVault, `${world.ids.archived}.gen1.jsonl`), '{"old":1}\n');
    world.moveAway();
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    const newVault = vault(world.renamed);
    assert.equal(
      Deno.readTextFileSync(join(newVault, `${world.ids.archived}.jsonl`)),
      '{"type":"user"}\n',
    );
    assert.ok(pathExists(join(newVault, world.ids.archived, "subagents", "a.jsonl")));
    assert.ok(!pathExists(join(oldVault, `${world.ids.archived}.jsonl`)));
    assert.ok(pathExists(join(newVault, `${world.ids.archived}.gen1.jsonl`)), "its generation");
  });
});

Deno.test("move: sessions of another folder with OLD's key, or registered elsewhere, stay where they are", async () => {
  await inMoveWorld(async (world) => {
    // `work.app` encodes to the same key as `work/app`.
    const twin = join(world.dir, "work.app");
    Deno.mkdirSync(twin);
    const key = projectDirFor(world.paths, world.old);
    assert.equal(projectDirFor(world.paths, twin), key);
    const twinId = "99999999-0000-4000-8000-000000000099";
    const elsewhereId = "88888888-0000-4000-8000-000000000088";
    const line = (id: string, cwd: string) =>
      JSON.stringify({ type: "user", sessionId: id, cwd }) + "\n";
    Deno.writeTextFileSync(join(key, `${twinId}.jsonl`), line(twinId, twin));
    // A P# leftover: started in OLD, registered to the web folder since.
    Deno.writeTextFileSync(join(key, `${elsewhereId}.jsonl`), line(elsewhereId, world.old));
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${world.registryText}${elsewhereId}|${world.web}|Moved by P#|\n`,
    );
    world.moveAway();
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(pathExists(join(key, `${twinId}.jsonl`)), "the twin's session stays");
    assert.ok(
      pathExists(join(key, `${elsewhereId}.jsonl`)),
      "a session registered elsewhere stays",
    );
    assert.ok(pathExists(join(key, "memory", "MEMORY.md")), "the shared key's memory stays");
    assert.ok(!pathExists(join(key, `${world.ids.main}.jsonl`)), "OLD's own sessions moved");
  });
});

Deno.test({
  name: "move at a terminal with its output piped refuses instead of moving unasked",
  // util-linux `script` gives claudecm a terminal for stdin while its stdout goes to `cat`.
  ignore: !HAVE_PTY,
  fn: async () => {
    await inMoveWorld(async (world) => {
      world.moveAway();
      const before = treeState(world.paths.claudeRoot);
      const run = await typeInTerminal(world, ["move", world.old, world.renamed], {
        steps: [],
        shellAfter: "| cat",
        cwd: world.dir,
      });
      // The pipeline's status is cat's: the refusal shows in what was said and what stayed.
      assert.match(run.screen, /asks before it moves, and its output is not a terminal/);
      assert.deepEqual(treeState(world.paths.claudeRoot), before, "nothing moved");
    });
  },
});

Deno.test({
  name: "a pipe at ~/.claude.json is refused in one line, never read (move --dry-run too)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await inMoveWorld(async (world) => {
      world.moveAway();
      Deno.removeSync(world.paths.claudeJsonFile);
      assert.ok(
        new Deno.Command("mkfifo", { args: [world.paths.claudeJsonFile] }).outputSync().success,
      );
      for (
        const args of [["move", "--dry-run", world.old, world.renamed], [
          "move",
          world.old,
          world.renamed,
        ]]
      ) {
        const result = await world.run(args);
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, /cannot read .*\.claude\.json: .*not a regular file/);
      }
    });
  },
});
