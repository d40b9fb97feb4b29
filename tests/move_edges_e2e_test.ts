// Issue 30 items 7 and 10: a move cut short between a session's transcript and its `<id>/`
// folder is finished by running it again; two folders that share a project key move their rows
// and settings, the files staying where claude already finds them.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileTree, inMoveWorld } from "./helpers/move_world.ts";
import { writeTranscript } from "./helpers/claude_home.ts";
import { runOnFullDisk, tmpfsMountable } from "./helpers/full_disk.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { projectKey } from "../lib/core/project_key.ts";
import { readSessionFolder } from "../lib/transcript/session_folder.ts";

Deno.test("move: a transcript already in NEW's key with its <id>/ folder left under OLD's is finished by a rerun", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    const newSub = join(world.renamed, "sub");
    // The registered sub session (its row still names OLD/sub) and the unregistered loose one
    // (found by the folder its transcript records), each with a `<id>/` folder.
    const cases = [[world.ids.sub, world.sub, newSub], [world.ids.loose, world.old, world.renamed]];
    const looseAgents = join(projectDirFor(world.paths, world.old), world.ids.loose, "subagents");
    Deno.mkdirSync(looseAgents, { recursive: true });
    Deno.writeTextFileSync(join(looseAgents, "agent-b2.jsonl"), '{"isSidechain":true}\n');
    for (const [id, from, to] of cases) {
      const target = projectDirFor(world.paths, to);
      Deno.mkdirSync(target, { recursive: true });
      Deno.renameSync(
        join(projectDirFor(world.paths, from), `${id}.jsonl`),
        join(target, `${id}.jsonl`),
      );
    }
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Nothing to do/);
    for (const [id, from, to] of cases) {
      const agents = join(projectDirFor(world.paths, to), id, "subagents");
      assert.ok(pathExists(agents), `${id}'s folder followed its transcript`);
      assert.ok(!pathExists(join(projectDirFor(world.paths, from), id)), `nothing left of ${id}`);
    }
    // The rows were moved too; a second rerun has nothing left.
    assert.ok(!Deno.readTextFileSync(world.paths.registryFile).includes(`|${world.sub}/|`));
    const again = await world.run(["move", world.old, world.renamed]);
    assert.match(again.stdout, /Nothing to do/);
  });
});

Deno.test("move: a <id>/ folder left under OLD's key after its row was moved follows the row", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    assert.equal((await world.run(["move", world.old, world.renamed])).code, 0);
    // As if the folder's rename had failed while the rest went on: it is back under OLD's key.
    const newSub = join(world.renamed, "sub");
    const moved = join(projectDirFor(world.paths, newSub), world.ids.sub);
    const left = join(projectDirFor(world.paths, world.sub), world.ids.sub);
    Deno.mkdirSync(projectDirFor(world.paths, world.sub), { recursive: true });
    Deno.renameSync(moved, left);
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Nothing to do/);
    assert.ok(pathExists(join(moved, "subagents", "agent-a1.jsonl")));
    assert.ok(!pathExists(left));
  });
});

Deno.test("move a-b a/b: two folders with one project key move their rows and settings, never their files", async () => {
  await inMoveWorld(async (world) => {
    const dashed = join(world.dir, "work", "a-b");
    const nested = join(world.dir, "work", "a", "b");
    Deno.mkdirSync(join(dashed, "sub"), { recursive: true });
    const key = projectDirFor(world.paths, dashed);
    assert.equal(projectDirFor(world.paths, nested), key, "the two share a key");
    const [top, sub] = [
      "aaaaaaaa-0000-4000-8000-0000000000a1",
      "aaaaaaaa-0000-4000-8000-0000000000a2",
    ];
    writeTranscript(world.paths, dashed, top);
    writeTranscript(world.paths, join(dashed, "sub"), sub);
    Deno.mkdirSync(join(key, top, "tool-results"), { recursive: true });
    Deno.writeTextFileSync(join(key, top, "tool-results", "r1.txt"), "output\n");
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${top}|${dashed}|Dashed|\n${sub}|${join(dashed, "sub")}|Dashed sub|\n${world.registryText}`,
    );
    const settings = Deno.readTextFileSync(world.paths.claudeJsonFile).replace(
      '"projects": {\n',
      `"projects": {\n    ${JSON.stringify(dashed)}: {"hasTrustDialogAccepted": true},\n`,
    );
    Deno.writeTextFileSync(world.paths.claudeJsonFile, settings);
    // The user's `mv a-b a/b`.
    Deno.mkdirSync(join(world.dir, "work", "a"));
    Deno.renameSync(dashed, nested);
    const doctor = await world.run(["doctor"]);
    const suggested = doctor.stdout.match(/claudecm move (\S+) <NEW>/);
    assert.ok(suggested !== null && suggested[1].includes("a-b"), doctor.stdout);
    const files = fileTree(world.paths.projectsDir);
    const result = await world.run(["move", dashed, nested]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /a-b and .*b share the project key .*-a-b: their files stay where they are/,
    );
    assert.match(result.stdout, /Moved 0 transcript\(s\), 2 row\(s\) and 1 settings entry/);
    // No file moved; as claude's /cd does, each transcript says it is NEW's now.
    const names = (tree: string[]) => tree.map((entry) => entry.slice(0, entry.indexOf(" ")));
    assert.deepEqual(names(fileTree(world.paths.projectsDir)), names(files), "no file moved");
    assert.match(result.stdout, /their files stay where they are.*; 1 transcript\(s\) there get/);
    for (const [id, dir] of [[top, nested], [sub, join(nested, "sub")]]) {
      assert.equal(
        readSessionFolder(join(projectDirFor(world.paths, dir), `${id}.jsonl`)).folder,
        dir,
      );
    }
    assert.equal(Deno.readTextFileSync(join(key, top, "tool-results", "r1.txt")), "output\n");
    const rows = world.sessions().filter((row) => row.guid === top || row.guid === sub);
    assert.deepEqual(rows.map((row) => row.dir), [nested, join(nested, "sub")]);
    const projects = JSON.parse(Deno.readTextFileSync(world.paths.claudeJsonFile)).projects;
    assert.deepEqual(projects[nested], { hasTrustDialogAccepted: true });
    assert.ok(!(dashed in projects));
    const after = await world.run(["doctor"]);
    assert.doesNotMatch(after.stdout, /a-b/, "doctor has nothing left to suggest");
    assert.match((await world.run(["move", dashed, nested])).stdout, /Nothing to do/);
    // --json says the same (of the row put back: sub's transcript already says it is NEW's).
    Deno.writeTextFileSync(world.paths.registryFile, `${top}|${dashed}|Dashed|\n`);
    const json = JSON.parse((await world.run(["move", "--json", dashed, nested])).stdout);
    assert.equal(json.status, "moved");
    assert.deepEqual(json.sharedKeys.map((k: { to: string }) => k.to), [nested]);
  });
});

Deno.test({
  name: "move on a full ~/.claudecm: refused before any file moves (the rows could not follow)",
  ignore: !tmpfsMountable(),
  fn: async () => {
    await inMoveWorld(async (world) => {
      world.moveAway();
      const projects = fileTree(world.paths.projectsDir);
      const full = world.paths.cmHome;
      const run = (args: string[]) => runOnFullDisk(args, { env: world.env, cwd: world.dir, full });
      const dry = await run(["move", "--dry-run", world.old, world.renamed]);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /Rows in sessions\.txt: 3/, "a dry run still shows its plan");
      for (
        const args of [["move", world.old, world.renamed], [
          "move",
          "--json",
          world.old,
          world.renamed,
        ]]
      ) {
        const refused = await run(args);
        assert.equal(refused.code, 1, refused.stdout);
        assert.match(
          refused.stderr,
          /not moved: nothing can be saved in this run: no space left to write .*\.claudecm/,
        );
        assert.deepEqual(fileTree(world.paths.projectsDir), projects, "no file moved");
      }
    });
  },
});

Deno.test({
  name:
    "move does what claude's /cd does: a relocated record, task-output links re-pointed, stale paths said",
  // claude makes no task-output links on Windows (and wine's links do not work).
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await inMoveWorld(async (world) => {
      const tmp = join(world.dir, "tmp");
      world.env.CLAUDE_CODE_TMPDIR = tmp;
      const oldSidecar = join(projectDirFor(world.paths, world.sub), world.ids.sub);
      const agent = join(oldSidecar, "subagents", "agent-a1.jsonl");
      // A saved tool output named by its absolute path in the session's lines, as claude writes.
      Deno.mkdirSync(join(oldSidecar, "tool-results"));
      const saved = join(oldSidecar, "tool-results", "toolu_1.txt");
      Deno.writeTextFileSync(saved, "big output\n");
      const transcript = join(projectDirFor(world.paths, world.sub), `${world.ids.sub}.jsonl`);
      Deno.writeTextFileSync(
        transcript,
        JSON.stringify({
          type: "user",
          sessionId: world.ids.sub,
          cwd: world.sub,
          message: { content: `Output too large. Full output saved to: ${saved}` },
        }) + "\n",
        { append: true },
      );
      // claude's task output for a subagent: a link into the session's folder.
      const tasks = join(
        tmp,
        `claude-${Deno.uid() ?? 0}`,
        projectKey(world.sub),
        world.ids.sub,
        "tasks",
      );
      Deno.mkdirSync(tasks, { recursive: true });
      Deno.symlinkSync(agent, join(tasks, "a1.output"));
      Deno.symlinkSync("/elsewhere/x", join(tasks, "other.output"));
      world.moveAway();
      const dry = await world.run(["move", "--dry-run", world.old, world.renamed]);
      assert.match(
        dry.stdout,
        /1 line\(s\) of 1 session\(s\) name files in a session folder by its old path/,
      );
      const result = await world.run(["move", "--json", world.old, world.renamed]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout).stalePaths, [{ guid: world.ids.sub, lines: 1 }]);
      const newSub = join(world.renamed, "sub");
      const newSidecar = join(projectDirFor(world.paths, newSub), world.ids.sub);
      assert.equal(
        Deno.readLinkSync(join(tasks, "a1.output")),
        join(newSidecar, "subagents", "agent-a1.jsonl"),
      );
      assert.equal(Deno.readTextFileSync(join(tasks, "a1.output")), '{"isSidechain":true}\n');
      assert.equal(Deno.readLinkSync(join(tasks, "other.output")), "/elsewhere/x", "not its");
      const lines = Deno.readTextFileSync(
        join(projectDirFor(world.paths, newSub), `${world.ids.sub}.jsonl`),
      )
        .trimEnd().split("\n");
      assert.deepEqual(JSON.parse(lines.at(-1)!), {
        type: "relocated",
        sessionId: world.ids.sub,
        relocatedCwd: newSub,
      });
      assert.equal(
        readSessionFolder(join(projectDirFor(world.paths, newSub), `${world.ids.sub}.jsonl`))
          .folder,
        newSub,
      );
    });
  },
});

Deno.test("move killed between a transcript's relocated record and its rename: the rerun renames it", async () => {
  await inMoveWorld(async (world) => {
    world.moveAway();
    // The loose session (no row: found by what it records) stamped as the move does, not renamed.
    const transcript = join(projectDirFor(world.paths, world.old), `${world.ids.loose}.jsonl`);
    Deno.writeTextFileSync(
      transcript,
      JSON.stringify({
        type: "relocated",
        sessionId: world.ids.loose,
        relocatedCwd: world.renamed,
      }) +
        "\n",
      { append: true },
    );
    const before = Deno.readFileSync(transcript);
    const result = await world.run(["move", world.old, world.renamed]);
    assert.equal(result.code, 0, result.stderr);
    const moved = join(projectDirFor(world.paths, world.renamed), `${world.ids.loose}.jsonl`);
    assert.deepEqual(Deno.readFileSync(moved), before, "renamed, and not stamped twice");
  });
});
