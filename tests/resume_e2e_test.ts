import assert from "node:assert/strict";
import { join } from "node:path";
import { waitUntil } from "./helpers/fakes.ts";
import { claudecmCommand } from "./helpers/run_cli.ts";
import {
  createLaunchWorld,
  type LaunchWorld,
  openInAnotherWindow,
  PROJECT_KEY_IMPORT,
  useClaudeScript,
} from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { pathExists } from "../lib/core/fs_checks.ts";

const ORIGINAL = sessionId(0xa1);
const FORK = "f0f0f0f0-0000-4000-8000-00000000f0f0";
/** A benchmark that makes post-exit offer the trim. */
const WORTH_TRIMMING = {
  benchmark: { preTrimTokens: 5000, reductionPercent: 40, breakEvenTurns: 3 },
};

/** A registered session with a real-looking transcript in the world's project. */
function seedSession(world: LaunchWorld, options: { exitTail?: boolean } = {}): string {
  const folder = projectDirFor(world.paths, world.project);
  Deno.mkdirSync(folder, { recursive: true });
  const builder = finishedSession({ sessionId: ORIGINAL, cwd: world.project });
  if (options.exitTail) {
    builder.prompt("<command-name>/exit</command-name>\n<command-message>exit</command-message>");
  }
  save(folder, builder);
  Deno.mkdirSync(join(folder, ORIGINAL, "subagents"), { recursive: true });
  Deno.writeTextFileSync(
    world.paths.registryFile,
    `${ORIGINAL}|${world.project}|Seeded work|98765\n`,
  );
  return folder;
}

Deno.test("a session that is another row's never passes for this resume's fork: no row twice", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    // Another window's `new` registered FORK before its claude wrote a line (write-ahead).
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${ORIGINAL}|${world.project}|Seeded work|98765\n${FORK}|${world.project}|Fresh one|\n`,
    );
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["carry on"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((row) => [row.guid, row.desc]), [
      [ORIGINAL, "Seeded work"],
      [FORK, "Fresh one"],
    ]);
    assert.doesNotMatch(result.stdout, /Claude continued this session as/);
    assert.ok(pathExists(join(folder, `${ORIGINAL}.jsonl`)), "nothing set aside");
  } finally {
    world.cleanup();
  }
});

Deno.test("a fork on resume: the row follows the fork, the predecessor goes to backup", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["carry on"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    const [row] = world.sessions();
    assert.deepEqual([row.guid, row.desc, row.tokens], [FORK, "Seeded work", ""]);
    const backup = join(world.paths.backupDir, "project");
    assert.ok(pathExists(join(backup, `${ORIGINAL}.jsonl`)), "predecessor in backup/<leaf>/");
    assert.ok(pathExists(join(backup, ORIGINAL, "subagents")), "its sidecar dir too");
    assert.ok(!pathExists(join(folder, `${ORIGINAL}.jsonl`)));
    assert.ok(pathExists(join(folder, `${FORK}.jsonl`)));
    assert.ok(!pathExists(world.paths.quarantineRoot), "never the orphan quarantine");
    const [launch] = world.launches();
    assert.deepEqual(launch.argv.slice(1, 5), ["--resume", ORIGINAL, "-n", "desk - Seeded work"]);
  } finally {
    world.cleanup();
  }
});

Deno.test("a /clear inside a resumed session is no fork: the row and the original stay, the new one is named", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    const cleared = sessionId(0xc1);
    world.claudeScenario({
      steps: [{ say: "old topic" }, { clear: cleared }, { say: "new topic" }],
    });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
    assert.ok(pathExists(join(folder, `${ORIGINAL}.jsonl`)), "the conversation stays where it was");
    assert.ok(!pathExists(join(world.paths.backupDir, "project")));
    assert.doesNotMatch(result.stderr, /continued this session as/);
    assert.match(result.stderr, new RegExp(`new conversation, ${cleared}.*claudecm adopt`, "s"));
  } finally {
    world.cleanup();
  }
});

Deno.test("-r ID --fork-session: the original and its row stay; the branch gets a row of its own", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    world.claudeScenario({ forkId: FORK, messages: ["try another way"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["-r", ORIGINAL, "--fork-session"], { stdin: "Other way\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(pathExists(join(folder, `${ORIGINAL}.jsonl`)), "the original stays");
    assert.ok(pathExists(join(folder, `${FORK}.jsonl`)));
    assert.ok(!pathExists(join(world.paths.backupDir, "project")));
    assert.deepEqual(
      world.sessions().map((s) => [s.guid, s.desc]).sort(),
      [
        [FORK, "Other way"],
        [ORIGINAL, "Seeded work"],
      ].sort(),
    );
  } finally {
    world.cleanup();
  }
});

Deno.test("a plain resume changes nothing but the tokens and the order", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    world.claudeScenario({ messages: ["carry on"] });
    world.cmvScenario({
      benchmark: { preTrimTokens: 111, reductionPercent: 2, breakEvenTurns: null },
    });
    const result = await world.run(["resume", "1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      world.sessions().map((s) => [s.guid, s.desc, s.tokens]),
      [[ORIGINAL, "Seeded work", "111"]],
    );
    assert.ok(pathExists(join(folder, `${ORIGINAL}.jsonl`)));
    assert.ok(!pathExists(join(world.paths.backupDir, "project")));
    assert.match(result.stderr, /\*\*\* 1\. Seeded work .* \[Selected\] \*\*\*/);
  } finally {
    world.cleanup();
  }
});

Deno.test("an /exit tail that claude refuses is retried with 'please continue'", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world, { exitTail: true });
    world.claudeScenario({ refuseExitTail: true, messages: ["ok"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["1"], { stdin: "y\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /retry with a prompt that says "please continue"\? \[Y\/n\]/);
    const runs = world.launches();
    assert.equal(runs.length, 2);
    assert.equal(runs[1].argv.at(-1), "please continue");
    assert.equal(world.sessions()[0].guid, ORIGINAL);
  } finally {
    world.cleanup();
  }
});

Deno.test("a refused resume with the transcript present keeps the entry with a yellow note", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world, { exitTail: true });
    world.claudeScenario({ refuseExitTail: true });
    const result = await world.run(["1"], { stdin: "n\n" });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /has NOT been deleted/);
    assert.equal(world.launches().length, 1);
    assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
    assert.equal(world.argv("cmv").length, 0);
  } finally {
    world.cleanup();
  }
});

Deno.test("a resume whose transcript is gone offers the recovery choices and keeps the entry", async () => {
  const world = createLaunchWorld();
  try {
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${ORIGINAL}|${world.project}|Lost one|\n`,
    );
    const result = await world.run(["1"], { stdin: "\n" });
    assert.equal(result.code, 0);
    assert.match(result.stderr, /The transcript of 'Lost one' is gone/);
    assert.doesNotMatch(result.stderr, /Delete this entry/);
    assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
    assert.equal(world.launches().length, 0);
  } finally {
    world.cleanup();
  }
});

Deno.test("resume N out of range and a vanished directory are clear errors", async () => {
  const world = createLaunchWorld();
  try {
    const empty = await world.run(["resume", "1"]);
    assert.equal(empty.code, 1, "an empty list is no better than a short one");
    assert.match(empty.stderr, /No saved sessions\./);
    seedSession(world);
    const tooFar = await world.run(["resume", "5"]);
    assert.equal(tooFar.code, 1);
    assert.match(tooFar.stderr, /No session #5: the list has 1\./);
    Deno.writeTextFileSync(world.paths.registryFile, `${ORIGINAL}|${world.dir}/gone dir|Gone|\n`);
    const gone = await world.run(["1"]);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /directory no longer exists: .*gone dir/);
    assert.equal(world.launches().length, 0);
    const usage = await world.run(["resume", "zero"]);
    assert.equal(usage.code, 1, "a word is a name no session has");
    assert.match(usage.stderr, /No such session: zero/);
    assert.equal(world.launches().length, 0);
  } finally {
    world.cleanup();
  }
});

Deno.test("cmv is always told the session: benchmark, snapshot and trim never get --latest", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world);
    world.claudeScenario({ messages: ["more"] });
    world.cmvScenario(WORTH_TRIMMING);
    const result = await world.run(["1"], { stdin: "y\n" });
    assert.equal(result.code, 0, result.stderr);
    const commands = world.argv("cmv").map((e) => e.argv);
    assert.deepEqual(commands.map((argv) => argv[0]).sort(), ["benchmark", "snapshot", "trim"]);
    for (const argv of commands) {
      assert.ok(!argv.includes("--latest"), argv.join(" "));
      assert.equal(argv[argv.indexOf("-s") + 1], ORIGINAL, argv.join(" "));
    }
    assert.match(result.stderr, /A trim would recover 40%/);
    assert.notEqual(world.sessions()[0].guid, ORIGINAL, "the row follows the trimmed session");
  } finally {
    world.cleanup();
  }
});

Deno.test("a failed resume never adopts the transcript it left behind (exit-code gate)", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["x"], exitCode: 1 });
    const result = await world.run(["1"]);
    assert.equal(result.code, 1);
    assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
    assert.ok(pathExists(join(folder, `${ORIGINAL}.jsonl`)), "the original stays put");
    assert.ok(!pathExists(join(world.paths.backupDir, "project")));
    // Claude did resume, into a fork: say so, and where its work is, not "did not resume".
    assert.doesNotMatch(result.stderr, /did not resume/);
    assert.match(
      result.stderr,
      new RegExp(`exit code 1 after continuing 'Seeded work' as ${FORK}.*claudecm adopt`, "s"),
    );
  } finally {
    world.cleanup();
  }
});

Deno.test("a resume that worked and then exited non-zero says so, and keeps the entry", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world);
    world.claudeScenario({ messages: ["some work"], exitCode: 3 });
    const result = await world.run(["1"]);
    assert.equal(result.code, 1);
    assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
    assert.doesNotMatch(result.stderr, /did not resume|message above says why/);
    assert.match(result.stderr, /Claude ended with exit code 3 after working on 'Seeded work'/);
  } finally {
    world.cleanup();
  }
});

Deno.test("no trim or refresh is offered while the session is open in another window", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world);
    world.claudeScenario({ messages: ["more"] });
    world.cmvScenario(WORTH_TRIMMING);
    openInAnotherWindow(world, ORIGINAL);
    const result = await world.run(["1"], { stdin: "y\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /Trim and refresh not offered: this session is open in another claude window/,
    );
    assert.doesNotMatch(result.stderr, /Create a new compacted session/);
    assert.ok(!world.argv("cmv").some((e) => e.argv[0] === "trim"));
  } finally {
    world.cleanup();
  }
});

Deno.test("a failed resume never offers to drop a row whose transcript is on disk, on any path", async () => {
  const world = createLaunchWorld();
  try {
    const elsewhere = join(world.dir, "elsewhere");
    Deno.mkdirSync(elsewhere);
    world.claudeScenario({ exitCode: 1 }); // an API error, a crash: any failure
    const expectKept = async (args: string[], cwd: string) => {
      const result = await world.run(args, { stdin: "\n", cwd });
      assert.equal(result.code, 1, `${args.join(" ")}: ${result.stderr}`);
      assert.doesNotMatch(result.stderr, /Delete this entry/, args.join(" "));
      assert.match(result.stderr, /has NOT been deleted; its transcript is on disk/);
      assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL], args.join(" "));
    };
    // The issue's case: registered in the project, resumed by id from another folder.
    seedSession(world);
    await expectKept(["-r", ORIGINAL], elsewhere);
    await expectKept([`--resume=${ORIGINAL}`], elsewhere);
    // The transcript sits in another project folder than its DIR's: claude appends to
    // a resumed session's original file wherever it is. resume N must look there too.
    const origin = join(world.dir, "origin");
    Deno.mkdirSync(origin);
    const originFolder = projectDirFor(world.paths, origin);
    Deno.mkdirSync(originFolder, { recursive: true });
    Deno.renameSync(
      join(projectDirFor(world.paths, world.project), `${ORIGINAL}.jsonl`),
      join(originFolder, `${ORIGINAL}.jsonl`),
    );
    await expectKept(["1"], world.project);
    await expectKept(["resume", "1"], world.project);
    // resume N runs claude in the registered DIR; a pass-through -r where the user is.
    assert.deepEqual(world.launches().map((e) => e.cwd), [
      elsewhere,
      elsewhere,
      world.project,
      world.project,
    ]);
  } finally {
    world.cleanup();
  }
});

Deno.test("every resume path asks before resuming a session open in another window, default No", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world);
    world.claudeScenario({ messages: ["more"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    openInAnotherWindow(world, ORIGINAL);
    const declined: Array<[string[], string]> = [
      [["1"], ""], // end of input is No
      [["resume", "1"], "\n"], // Enter is No
      [["-r", ORIGINAL], "n\n"],
      [[`--resume=${ORIGINAL}`], ""],
    ];
    for (const [args, stdin] of declined) {
      const result = await world.run(args, { stdin });
      assert.equal(result.code, 1, args.join(" "));
      assert.match(result.stderr, /'Seeded work' is open in another claude window/);
      assert.match(result.stderr, /Resume it here anyway\? \[y\/N\]: .*\n?.*Not resumed\./s);
      assert.equal(world.launches().length, 0, `${args.join(" ")} launched claude`);
    }
    assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
    const accepted = await world.run(["-r", ORIGINAL], { stdin: "y\n" });
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.equal(world.launches().length, 1);
  } finally {
    world.cleanup();
  }
});

Deno.test("a session another window resumes is live here even after its claude forked to a new id", async () => {
  const world = createLaunchWorld();
  const release = `${world.dir}/release`;
  let windowA: Deno.ChildProcess | undefined;
  try {
    seedSession(world);
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    // Window A: the resumed claude forks (its manifest then names only the fork) and keeps working.
    world.claudeScenario({ fork: true, steps: [{ say: "working" }, { waitForFile: release }] });
    windowA = claudecmCommand(["resume", "1"], {
      env: world.env,
      cwd: world.project,
      discardOutput: true,
    }).spawn();
    await windowA.stdin.close();
    await waitUntil(() => world.launches().length === 1 && forkManifestWritten(world), 20_000);
    // Window B: the same row, while A's claude runs on the fork (a claude B started would not wait).
    world.claudeScenario({ messages: ["from window B"] });
    const windowB = await world.run(["resume", "1"], { stdin: "" });
    assert.equal(windowB.code, 1, windowB.stderr);
    assert.match(windowB.stderr, /'Seeded work' is open in another claude window/);
    assert.equal(world.launches().length, 1, "B launched no claude");
    Deno.writeTextFileSync(release, "");
    assert.equal((await windowA.status).code, 0);
    assert.equal(world.sessions().length, 1);
  } finally {
    Deno.writeTextFileSync(release, "");
    await windowA?.status;
    world.cleanup();
  }

  /** A's claude has written its manifest under an id that is not the row's. */
  function forkManifestWritten(w: LaunchWorld): boolean {
    try {
      return [...Deno.readDirSync(w.paths.sessionsDir)].some((entry) => {
        const text = Deno.readTextFileSync(join(w.paths.sessionsDir, entry.name));
        return JSON.parse(text).sessionId !== ORIGINAL;
      });
    } catch {
      return false; // Not there yet, or being written.
    }
  }
});

Deno.test("post-exit never re-adds a session another window forked away meanwhile", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    const signal = `${world.dir}/window-a-done`;
    world.claudeScenario({ steps: [{ say: "window B" }, { waitForFile: signal }] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const windowB = world.run(["1"]);
    // Window B's claude has the session open and has written its turn.
    const original = join(folder, `${ORIGINAL}.jsonl`);
    await waitUntil(() => Deno.readTextFileSync(original).includes("window B"));
    // Meanwhile window A's resume forked: its row follows the fork, the original goes to backup.
    const backup = join(world.paths.backupDir, "project");
    Deno.mkdirSync(backup, { recursive: true });
    Deno.renameSync(original, join(backup, `${ORIGINAL}.jsonl`));
    const windowARow = `${FORK}|${world.project}|Seeded work|\n`;
    Deno.writeTextFileSync(world.paths.registryFile, windowARow);
    Deno.writeTextFileSync(signal, "");
    const result = await windowB;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(Deno.readTextFileSync(world.paths.registryFile), windowARow, "registry untouched");
    assert.match(result.stderr, new RegExp(`Session ${ORIGINAL} is no longer in the list`));
  } finally {
    world.cleanup();
  }
});

Deno.test("a pass-through -r of a session the list lacks registers it after the exit", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    Deno.writeTextFileSync(world.paths.registryFile, "");
    world.claudeScenario({ messages: ["more"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    // Resumed from another folder: the row's DIR is where the session lives, not the cwd.
    const elsewhere = join(world.dir, "elsewhere");
    Deno.mkdirSync(elsewhere);
    const result = await world.run(["-r", ORIGINAL], { stdin: "Adopted Here\n", cwd: elsewhere });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc, s.dir]), [
      [ORIGINAL, "Adopted Here", world.project],
    ]);
    assert.equal(world.launches()[0].cwd, elsewhere, "claude itself ran where the user is");
    assert.ok(pathExists(join(folder, `${ORIGINAL}.jsonl`)));
  } finally {
    world.cleanup();
  }
});

Deno.test("post-exit syncs the index from the whole registry: each session under its own DESC", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    const second = sessionId(0xb2);
    save(folder, finishedSession({ sessionId: second, cwd: world.project }));
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${ORIGINAL}|${world.project}|Seeded work|98765\n${second}|${world.project}|Second one|\n`,
    );
    const indexPath = join(folder, "sessions-index.json");
    Deno.writeTextFileSync(
      indexPath,
      JSON.stringify({
        version: 1,
        entries: [{ sessionId: second, firstPrompt: "Project", projectPath: "/stale" }],
        originalPath: world.project,
      }),
    );
    world.claudeScenario({ messages: ["more"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    const entries = JSON.parse(Deno.readTextFileSync(indexPath)).entries as Array<
      { sessionId: string; firstPrompt: string; projectPath: string }
    >;
    assert.deepEqual(
      entries.map((e) => [e.sessionId, e.firstPrompt, e.projectPath]).sort(),
      [[ORIGINAL, "Seeded work", world.project], [second, "Second one", world.project]].sort(),
    );
  } finally {
    world.cleanup();
  }
});

Deno.test("post-exit offers the refresh; yes replaces #1 with a fresh session, the old one (old) last", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world);
    world.claudeScenario({ messages: ["more"] });
    // Just under the 10% a trim needs: said as 9%, never rounded up to the threshold.
    world.cmvScenario({ benchmark: { preTrimTokens: 80_000, reductionPercent: 9.6 } });
    // Refresh? y; name: Enter (keep); edit the prompt? n.
    const result = await world.run(["1"], { stdin: "y\n\nn\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Trim not offered: it would recover 9% .*below 10%/);
    assert.match(result.stderr, /Create a new compacted session, built from a structured rebuild/);
    assert.match(result.stderr, /Fresh session created: /);
    const sessions = world.sessions();
    assert.equal(sessions.length, 2);
    assert.notEqual(sessions[0].guid, ORIGINAL);
    assert.deepEqual([sessions[1].guid, sessions[1].desc], [ORIGINAL, `${sessions[0].desc} (old)`]);
    const print = world.argv("claude").find((e) => e.argv.includes("-p"));
    assert.ok(print, "claude -p was run for the refresh");
    assert.ok(print.argv.includes("--dangerously-skip-permissions"));
  } finally {
    world.cleanup();
  }
});

Deno.test("a refresh whose claude names another session than the new one changes no row", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world);
    const other = sessionId(0xb2);
    const rows = Deno.readTextFileSync(world.paths.registryFile);
    Deno.writeTextFileSync(world.paths.registryFile, `${rows}${other}|${world.dir}|Elsewhere|5\n`);
    for (const named of [ORIGINAL, other]) {
      world.claudeScenario({ messages: ["more"], printSessionId: named });
      world.cmvScenario({ benchmark: { preTrimTokens: 80_000 } });
      const before = Deno.readTextFileSync(world.paths.registryFile).split("\n").slice(1);
      const result = await world.run(["1"], { stdin: "y\n\nn\n" });
      assert.match(result.stderr, new RegExp(`claude named session ${named}, not the new one`));
      assert.deepEqual(
        Deno.readTextFileSync(world.paths.registryFile).split("\n").slice(1),
        before,
        "every row but the resumed one (moved to #1) as it was",
      );
      assert.ok(pathExists(join(projectDirFor(world.paths, world.project), `${ORIGINAL}.jsonl`)));
    }
  } finally {
    world.cleanup();
  }
});

Deno.test("end of input at the refresh's name runs no claude -p and changes no row", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world);
    world.claudeScenario({ messages: ["more"] });
    world.cmvScenario({ benchmark: { preTrimTokens: 80_000 } });
    const result = await world.run(["1"], { stdin: "y\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /No answer: no refresh\./);
    assert.equal(world.argv("claude").filter((e) => e.argv.includes("-p")).length, 0);
    assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name:
    "a refused resume whose transcript went: the vault's copy first, and only a plain yes deletes",
  // The claude that removes the transcript is a shell script.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const folder = seedSession(world);
      world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
      const remover = join(world.dir, "claude-that-removes");
      Deno.writeTextFileSync(
        remover,
        `#!/bin/sh\ncase "$1" in --version|--help) exec "${world.env.CLAUDECM_CLAUDE}" "$@";; esac\n` +
          `rm -f "${join(folder, `${ORIGINAL}.jsonl`)}"\nexit 1\n`,
      );
      Deno.chmodSync(remover, 0o755);
      world.env.CLAUDECM_CLAUDE = remover;
      assert.equal((await world.run(["vault", "sync"])).code, 0);
      const kept = await world.run(["resume", "1"], { stdin: "\n" });
      assert.match(kept.stderr, /the vault has it: claudecm restore .* The entry is kept/);
      assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
      // Without a vault copy: a stray key keeps the entry, a plain yes deletes it.
      Deno.removeSync(world.paths.vaultDir, { recursive: true });
      world.env.CLAUDECM_VAULT = "off";
      save(folder, finishedSession({ sessionId: ORIGINAL, cwd: world.project }));
      const stray = await world.run(["resume", "1"], { stdin: "\x1b[A\n" });
      assert.match(stray.stderr, /Delete this entry\? \[Y\/n\]: .*The entry is kept/s);
      assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
      save(folder, finishedSession({ sessionId: ORIGINAL, cwd: world.project }));
      const yes = await world.run(["resume", "1"], { stdin: "y\n" });
      assert.match(yes.stderr, /Deleted entry: Seeded work/);
      assert.deepEqual(world.sessions(), []);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test("after an accepted trim, the refresh is built from the trimmed session", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world);
    world.claudeScenario({ messages: ["more"] });
    world.cmvScenario({ benchmark: { ...WORTH_TRIMMING.benchmark, preTrimTokens: 80_000 } });
    const result = await world.run(["1"], { stdin: "y\ny\n\nn\n" });
    assert.equal(result.code, 0, result.stderr);
    const trimmed = /Session trimmed\. New ID: ([0-9a-f-]{36})/.exec(result.stderr)?.[1];
    assert.ok(trimmed, result.stderr);
    const sessions = world.sessions();
    assert.deepEqual(sessions.map((s) => s.guid).slice(1), [trimmed]);
    assert.match(sessions[1].desc, / \(old\)$/);
  } finally {
    world.cleanup();
  }
});

Deno.test("post-exit: Enter or end of input declines the refresh and changes nothing more", async () => {
  const world = createLaunchWorld();
  try {
    seedSession(world);
    world.claudeScenario({ messages: ["more"] });
    world.cmvScenario({ benchmark: { preTrimTokens: 80_000 } });
    const result = await world.run(["1"], { stdin: "" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Create a new compacted session/);
    assert.deepEqual(world.sessions().map((s) => s.guid), [ORIGINAL]);
    assert.ok(!world.argv("claude").some((e) => e.argv.includes("-p")));
  } finally {
    world.cleanup();
  }
});

Deno.test("a fork's predecessor open in another window stays where that window writes it", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seedSession(world);
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["carry on"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    openInAnotherWindow(world, ORIGINAL);
    const result = await world.run(["1"], { stdin: "y\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(world.sessions()[0].guid, FORK, "the row follows the fork");
    assert.match(
      result.stderr,
      /The previous transcript stays in .*: it is open in a claude window now\./,
    );
    assert.ok(pathExists(join(folder, `${ORIGINAL}.jsonl`)));
    assert.ok(!pathExists(join(world.paths.backupDir, "project", `${ORIGINAL}.jsonl`)));
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "a resume during which claude moved the session with /cd: the row follows before the trim",
  // The claude that does the /cd is a shell script over a Deno script.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      seedSession(world);
      const other = join(world.dir, "elsewhere");
      Deno.mkdirSync(other);
      // What the real CLI does on /cd: the transcript goes to the new folder's key, with a
      // `relocated` record (tests/real_claude_cd_contract_test.ts).
      useClaudeScript(
        world,
        `${PROJECT_KEY_IMPORT}
const id = Deno.args[Deno.args.indexOf("--resume") + 1];
const root = Deno.env.get("CLAUDE_CONFIG_DIR");
const to = ${JSON.stringify(other)};
const from = root + "/projects/" + projectKey(Deno.realPathSync(Deno.cwd())) + "/" + id + ".jsonl";
const dest = root + "/projects/" + projectKey(to);
Deno.mkdirSync(dest, { recursive: true });
Deno.renameSync(from, dest + "/" + id + ".jsonl");
Deno.writeTextFileSync(dest + "/" + id + ".jsonl",
  JSON.stringify({ type: "relocated", sessionId: id, relocatedCwd: to }) + "\\n", { append: true });
`,
      );
      world.cmvScenario(WORTH_TRIMMING);
      const result = await world.run(["1"], { stdin: "y\n\n" });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /Cannot trim/);
      const trimmed = /Session trimmed\. New ID: ([0-9a-f-]{36})/.exec(result.stderr)?.[1];
      assert.ok(trimmed, result.stderr);
      const [row] = world.sessions();
      assert.deepEqual([row.guid, row.dir], [trimmed, other]);
    } finally {
      world.cleanup();
    }
  },
});
