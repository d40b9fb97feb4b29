/**
 * A hostile user's full disk (issue 17, "Done means"): `~/.claude` or
 * `~/.claudecm` on a full tmpfs. Every command says what it could not write
 * in one line and leaves no empty or temporary file behind.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { buildRescueWorld } from "../fixtures/rescue/world.ts";
import { createFakeWorld } from "./helpers/fakes.ts";
import { runOnFullDisk, tmpfsMountable } from "./helpers/full_disk.ts";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { escapeRegExp } from "./helpers/portable.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { pathExists, readDirOrEmpty } from "../lib/core/fs_checks.ts";
import { projectDirFor, transcriptPathFor } from "../lib/core/paths.ts";

const ignore = !tmpfsMountable();

Deno.test({
  name: "a full ~/.claude: creating settings.json leaves no empty temporary file, run after run",
  ignore,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "Alpha" }]);
      const full = world.paths.claudeRoot;
      for (let run = 0; run < 2; run++) {
        const list = await runOnFullDisk(["list"], { env: world.env, cwd: world.project, full });
        assert.equal(list.code, 0, list.stderr);
        assert.match(list.stdout, /Alpha/);
      }
      const names = readDirOrEmpty(full).map((entry) => entry.name);
      assert.deepEqual(names.filter((name) => name.includes(".tmp-")), [], names.join(", "));
      assert.ok(!names.includes("settings.json"), "no settings.json could be written");
      // A run killed between its write and its link left one; Claude Code's own stay.
      Deno.writeTextFileSync(join(full, "settings.json.tmp-999999999"), "");
      Deno.writeTextFileSync(join(full, "history.jsonl.tmp-999999999"), "");
      const freed = await world.run(["list"]);
      assert.deepEqual(
        readDirOrEmpty(full).map((entry) => entry.name).filter((name) => name.includes(".tmp-")),
        ["history.jsonl.tmp-999999999"],
      );
      assert.match(freed.stderr, /Protected session transcripts/);
      const settings = JSON.parse(Deno.readTextFileSync(join(full, "settings.json")));
      assert.equal(settings.cleanupPeriodDays, 100_000);
    }),
});

Deno.test({
  name:
    "a full ~/.claudecm: E, P#, a new project and new refuse before asking; adopt says so in one line",
  ignore,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
      const folder = projectDirFor(world.paths, world.project);
      const orphan = "0ad0be00-0000-4000-8000-000000000001";
      save(folder, finishedSession({ sessionId: orphan, cwd: world.project, ask: "Unlisted" }));
      const other = join(world.dir, "other");
      Deno.mkdirSync(other);
      const registry = Deno.readFileSync(world.paths.registryFile);
      const full = world.paths.cmHome;
      const why = `nothing can be saved in this run: no space left to write ${full}; ` +
        "free some disk space and run again";
      // Issue 30 item 17: what would be typed (a name, a path, a yes) is never asked for.
      const attempts: Array<[string[], string, string, RegExp]> = [
        [[], "e\nr1\nRenamed\n\n", world.project, /New name for|Edit Sessions/],
        [[], `e\np2\n${other}\n\n`, world.project, /New path|Edit Sessions/],
        [[], "My project\ny\n\n", world.project, /Create a NEW project/],
        [["new"], "Fresh one\n", other, /Create a name/],
        [["adopt", "--all"], "", world.project, /\?/],
      ];
      for (const [args, stdin, cwd, unasked] of attempts) {
        const run = await runOnFullDisk(args, { env: world.env, cwd, full, stdin });
        const what = `${args.join(" ") || stdin.replaceAll("\n", " ")}: ${run.stdout}`;
        assert.deepEqual(Deno.readFileSync(world.paths.registryFile), registry, what);
        assert.doesNotMatch(run.stdout, unasked, what);
        if (args.length === 0) {
          assert.equal(run.code, 0, what);
          assert.match(run.stdout, new RegExp(` is not possible: ${escapeRegExp(why)}\\.`), what);
        } else {
          assert.equal(run.code, 1, what);
          // A launch asks on stderr too (stdout is not a terminal): a piped answer echoes no newline.
          const last = (run.stderr.trim().split("\n").at(-1) ?? "").replace(
            /^.*?(?=claudecm: )/,
            "",
          );
          assert.equal(
            last,
            args[0] === "new"
              ? `claudecm: ${why}`
              : `claudecm: no space left to write ${world.paths.registryFile}; ` +
                "free some disk space and run again",
            what,
          );
        }
        const left = readDirOrEmpty(full).map((entry) => entry.name);
        assert.deepEqual(left.filter((name) => /\.(?:tmp|partial)-/.test(name)), [], what);
      }
      assert.ok(Deno.statSync(transcriptPathFor(world.paths, world.project, main[1].guid)).isFile);
      assert.ok(!pathExists(projectDirFor(world.paths, other)), "no copy and no folder left");
      assert.ok(!pathExists(join(world.project, "my-project")), "no project folder made");
    }),
});

Deno.test({
  name: "a full project folder: recovery-prompt.md is not rotated away for an empty one",
  ignore,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "First" }, { desc: "Lost one", missing: true }]);
      const promptFile = join(world.project, "recovery-prompt.md");
      Deno.writeTextFileSync(promptFile, "the user's edited prompt\n");
      world.claudeScenario({ printResult: "Recovery text. ".repeat(400), messages: ["go"] });
      const run = await runOnFullDisk(["2"], {
        env: world.env,
        cwd: world.project,
        full: world.project,
        stdin: "2\n",
      });
      assert.match(run.stderr, /Could not write .*recovery-prompt\.md: .*no space left/i);
      assert.equal(Deno.readTextFileSync(promptFile), "the user's edited prompt\n");
      const names = readDirOrEmpty(world.project).map((entry) => entry.name);
      assert.deepEqual(names.filter((name) => name.startsWith("recovery-prompt")), [
        "recovery-prompt.md",
      ]);
    }),
});

Deno.test({
  name: "a full workspace: rescue --all says so in one line and leaves no empty or temporary file",
  ignore,
  fn: async () => {
    const fake = createFakeWorld();
    try {
      const w = buildRescueWorld(fake.home, new Date());
      const index = join(w.threadsDir, "INDEX.md");
      Deno.writeTextFileSync(index, "# My threads\r\nkept as I wrote it\r\n");
      const run = await runOnFullDisk(["rescue", "--all"], {
        env: fake.env,
        cwd: w.workspace,
        full: w.threadsDir,
      });
      assert.equal(run.code, 1, run.stdout);
      const lines = run.stderr.trim().split("\n");
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0], /^claudecm: .*workspace\/threads.*no space left/i);
      assert.equal(Deno.readTextFileSync(index), "# My threads\r\nkept as I wrote it\r\n");
      for (const entry of readDirOrEmpty(w.threadsDir)) {
        assert.doesNotMatch(entry.name, /\.tmp-\d+$/);
        assert.ok(Deno.statSync(join(w.threadsDir, entry.name)).size > 0, `${entry.name} empty`);
      }
    } finally {
      fake.cleanup();
    }
  },
});

Deno.test({
  name:
    "a full ~/.claudecm: a first find says so in one line, searches without the index, leaves no index file",
  ignore,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
      const full = world.paths.cmHome;
      const run = await runOnFullDisk(["find", "--json", "anything"], {
        env: world.env,
        cwd: world.project,
        full,
      });
      // The same path as a read-only or closed ~/.claudecm (issue 30 item 11): a scan instead.
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout).results, []);
      const lines = run.stderr.trim().split("\n");
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0], /disk is full; searching the transcripts without it/);
      const left = readDirOrEmpty(full).map((entry) => entry.name);
      assert.deepEqual(left.filter((name) => name.startsWith("find-index.db")), [
        "find-index.db.lock",
      ]);
    }),
});

Deno.test({
  name:
    "a full ~/.claudecm: a failed resume whose transcript is gone does not ask to delete its entry",
  ignore,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      const [row] = seedSessions(world, [{ desc: "Alpha" }]).main;
      const transcript = transcriptPathFor(world.paths, world.project, row.guid);
      // A claude that fails and takes the transcript with it.
      const remover = join(world.dir, "claude-that-removes");
      Deno.writeTextFileSync(
        remover,
        `#!/bin/sh\ncase "$1" in --version|--help) exec "${world.env.CLAUDECM_CLAUDE}" "$@";; esac\n` +
          `rm -f "${transcript}"\nexit 1\n`,
      );
      Deno.chmodSync(remover, 0o755);
      const registry = Deno.readFileSync(world.paths.registryFile);
      const run = await runOnFullDisk(["resume", "1"], {
        env: { ...world.env, CLAUDECM_CLAUDE: remover, CLAUDECM_VAULT: "off" },
        cwd: world.project,
        full: world.paths.cmHome,
        stdin: "y\n",
      });
      const said = run.stdout + run.stderr;
      assert.doesNotMatch(said, /Delete this entry\?/, said);
      assert.match(said, /Deleting its entry is not possible: nothing can be saved in this run/);
      assert.deepEqual(Deno.readFileSync(world.paths.registryFile), registry);
    }),
});

Deno.test({
  name: "a full ~/.claudecm: D# of an archived session asks no confirmation and deletes nothing",
  ignore,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      const { archived } = seedSessions(world, [{ desc: "Alpha" }], {
        archived: [{ desc: "Old one" }],
      });
      const transcript = transcriptPathFor(world.paths, world.project, archived[0].guid);
      const registry = Deno.readFileSync(world.paths.registryFile);
      const run = await runOnFullDisk([], {
        env: world.env,
        cwd: world.project,
        full: world.paths.cmHome,
        stdin: "v\nd1\ndelete\n\n\n",
      });
      assert.doesNotMatch(run.stdout, /Type 'delete' to confirm/);
      assert.match(
        run.stdout,
        /Deleting a session is not possible: nothing can be saved in this run/,
      );
      assert.ok(Deno.statSync(transcript).isFile, "its transcript stays");
      assert.deepEqual(Deno.readFileSync(world.paths.registryFile), registry);
    }),
});
