// Issue 30 item 3, DESIGN.md decision 24: a session set aside (a fork's
// predecessor, the pre-trim transcript, a quarantined orphan) leaves its
// sidecar folder where it is while a registered session's lines name files in
// it: a copy's lines name the original's `<id>/tool-results/…` by absolute path.
import assert from "node:assert/strict";
import { join } from "../lib/core/path.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { vaultFilesFor } from "../lib/core/session_copies.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { stampFile } from "../lib/core/preconditions.ts";
import { quarantineOrphan } from "../lib/app/orphans/quarantine.ts";
import { trimSession } from "../lib/app/trim/trim.ts";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { createFakeWorld } from "./helpers/fakes.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId, writeRegistryText } from "./helpers/claude_home.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { namesPathsIn, sidecarsNamedIn } from "../lib/transcript/named_paths.ts";

const ORIGINAL = sessionId(0xa1);
const FORK = "f0f0f0f0-0000-4000-8000-00000000f0f0";
const NEW = "5a7c9ebb-8fba-4c9e-8b7d-6e2f3a4b5c6d";

/** `id`'s transcript in `folder`, whose big tool output claude saved in its sidecar. */
function withToolResults(folder: string, id: string, cwd: string): string {
  const saved = join(folder, id, "tool-results", "toolu_01.txt");
  Deno.mkdirSync(join(folder, id, "tool-results"), { recursive: true });
  Deno.writeTextFileSync(saved, "the whole output\n");
  save(
    folder,
    new TranscriptBuilder({ sessionId: id, cwd })
      .prompt("Run the build")
      .tool("Bash", { command: "make" }, `Output too large (2MB). Full output saved to: ${saved}`)
      .text("Built.")
      .turnEnd(),
  );
  return saved;
}

Deno.test("a followed fork: the predecessor's transcript goes to backup, the tool results its lines name stay", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    const saved = withToolResults(folder, ORIGINAL, world.project);
    Deno.writeTextFileSync(world.paths.registryFile, `${ORIGINAL}|${world.project}|Work|1\n`);
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["carry on"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => s.guid), [FORK]);
    assert.match(Deno.readTextFileSync(join(folder, `${FORK}.jsonl`)), /toolu_01\.txt/);
    const backup = join(world.paths.backupDir, "project");
    assert.ok(pathExists(join(backup, `${ORIGINAL}.jsonl`)), "the transcript is set aside");
    assert.ok(!pathExists(join(folder, `${ORIGINAL}.jsonl`)));
    assert.equal(Deno.readTextFileSync(saved), "the whole output\n", "reachable where named");
    assert.ok(!pathExists(join(backup, ORIGINAL)), "the sidecar was not moved");
    assert.match(result.stderr, new RegExp(`session ${FORK}'s lines name files in it`));
  } finally {
    world.cleanup();
  }
});

Deno.test("a trim: the pre-trim transcript goes to backup, the tool results the trimmed copy names stay", async () => {
  const world = createFakeWorld();
  try {
    const test = createTestContext({ env: world.env, cwd: world.project, now: new Date() });
    const folder = projectDirFor(test.ctx.paths, world.project);
    const saved = withToolResults(folder, ORIGINAL, world.project);
    writeRegistryText(test.ctx.paths, `${ORIGINAL}|${world.project}|Work|1\n`);
    world.cmvScenario({ trimId: NEW });
    assert.equal(await trimSession(test.ctx, { guid: ORIGINAL }), NEW);
    const backup = join(test.ctx.paths.backupDir, "project");
    assert.ok(pathExists(join(backup, `${ORIGINAL}.jsonl`)), "pre-trim transcript in backup");
    assert.ok(pathExists(saved), "the tool results stay where the trimmed copy names them");
    assert.ok(!pathExists(join(backup, ORIGINAL)));
  } finally {
    world.cleanup();
  }
});

Deno.test("quarantine: an orphan's sidecar a registered session names stays; one nobody names goes", async () => {
  const world = createFakeWorld();
  try {
    const test = createTestContext({ env: world.env, cwd: world.project });
    const { paths } = test.ctx;
    const folder = projectDirFor(paths, world.project);
    const saved = withToolResults(folder, ORIGINAL, world.project);
    // A registered branch of the orphan, whose copied lines name the orphan's tool results.
    save(
      folder,
      new TranscriptBuilder({ sessionId: FORK, cwd: world.project })
        .prompt("Run the build")
        .tool("Bash", { command: "make" }, `Full output saved to: ${saved}`),
    );
    const lonely = sessionId(0xc3);
    save(folder, finishedSession({ sessionId: lonely, cwd: world.project }));
    Deno.mkdirSync(join(folder, lonely, "subagents"), { recursive: true });
    writeRegistryText(paths, `${FORK}|${world.project}|Branch|1\n`);
    for (const guid of [ORIGINAL, lonely]) {
      const stamp = stampFile(join(folder, `${guid}.jsonl`));
      assert.ok(await quarantineOrphan(test.ctx, { guid, stamp }, { dir: world.project }));
    }
    const quarantined = join(paths.quarantineRoot, "project");
    assert.ok(pathExists(join(quarantined, `${ORIGINAL}.jsonl`)));
    assert.ok(pathExists(saved), "named by the registered branch: stays");
    assert.ok(pathExists(join(quarantined, lonely, "subagents")), "named by nobody: goes along");
    assert.ok(!pathExists(join(folder, lonely)));
  } finally {
    world.cleanup();
  }
});

Deno.test("namesPathsIn: a path as JSON writes it, Windows backslashes and non-ASCII names too", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const file = join(dir, "t.jsonl");
    const lines = [
      { type: "user", message: { content: "C:\\Users\\zoë\\p\\abc\\tool-results\\x.txt" } },
      { type: "user", message: { content: "/home/zoë/p/def/tool-results/y.txt" } },
    ];
    Deno.writeTextFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    assert.ok(namesPathsIn(file, "C:\\Users\\zoë\\p\\abc", "\\"));
    assert.ok(namesPathsIn(file, "/home/zoë/p/def", "/"));
    assert.ok(!namesPathsIn(file, "/home/zoë/p/de", "/"), "a folder whose name another extends");
    assert.ok(!namesPathsIn(file, "C:\\Users\\zoë\\p\\abc\\tool-results\\x.txt", "\\"));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("vault prune keeps a set-aside predecessor while the fork that names its tool results is registered", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    withToolResults(folder, ORIGINAL, world.project);
    Deno.writeTextFileSync(world.paths.registryFile, `${ORIGINAL}|${world.project}|Work|1\n`);
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["carry on"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    assert.equal((await world.run(["1"])).code, 0);
    const entry = vaultFilesFor(world.paths, { guid: ORIGINAL, dir: world.project });
    const kept = join(entry.sidecar, "tool-results", "toolu_01.txt");
    assert.ok(pathExists(kept), "the vault holds the predecessor's tool results");
    const pruned = await world.run(["vault", "prune"]);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stdout, new RegExp(`keeping ${ORIGINAL}: registered session ${FORK}`));
    assert.ok(pathExists(kept), "kept with the fork that names them");
    // Once the fork is no longer registered, nothing points at them.
    Deno.writeTextFileSync(world.paths.registryFile, "");
    assert.equal((await world.run(["vault", "prune"])).code, 0);
    assert.ok(!pathExists(kept));
  } finally {
    world.cleanup();
  }
});

Deno.test("vault prune keeps the parent a registered /branch copy records (forkedFrom)", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    save(folder, finishedSession({ sessionId: ORIGINAL, cwd: world.project }));
    const lines = Deno.readTextFileSync(join(folder, `${ORIGINAL}.jsonl`)).trimEnd().split("\n")
      .map((line) => JSON.parse(line))
      .filter((line) => typeof line.uuid === "string")
      .map((line) => ({
        ...line,
        sessionId: FORK,
        forkedFrom: { sessionId: ORIGINAL, messageUuid: line.uuid },
      }));
    Deno.writeTextFileSync(
      join(folder, `${FORK}.jsonl`),
      lines.map((line) => JSON.stringify(line) + "\n").join(""),
    );
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${ORIGINAL}|${world.project}|Work|1\n${FORK}|${world.project}|Branch|1\n`,
    );
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    Deno.writeTextFileSync(world.paths.registryFile, `${FORK}|${world.project}|Branch|1\n`);
    const pruned = await world.run(["vault", "prune"]);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stdout, new RegExp(`keeping ${ORIGINAL}: registered session ${FORK}`));
    const entry = vaultFilesFor(world.paths, { guid: ORIGINAL, dir: world.project });
    assert.ok(pathExists(entry.transcript), "the parent stays in the vault");
  } finally {
    world.cleanup();
  }
});

Deno.test("restore puts back the predecessor's tool results the restored fork names, and not its transcript", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    const saved = withToolResults(folder, ORIGINAL, world.project);
    Deno.writeTextFileSync(world.paths.registryFile, `${ORIGINAL}|${world.project}|Work|1\n`);
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["carry on"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    assert.equal((await world.run(["1"])).code, 0);
    // Claude's clean-up took the fork's transcript and the folder it names.
    Deno.removeSync(join(folder, `${FORK}.jsonl`));
    Deno.removeSync(join(folder, ORIGINAL), { recursive: true });
    const restored = await world.run(["restore", "1"]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.ok(pathExists(join(folder, `${FORK}.jsonl`)));
    assert.equal(
      Deno.readTextFileSync(saved),
      "the whole output\n",
      "back where the fork names it",
    );
    assert.match(restored.stdout, /Put back 1 files its lines name, from the vault/);
    assert.ok(!pathExists(join(folder, `${ORIGINAL}.jsonl`)), "the predecessor stays set aside");
  } finally {
    world.cleanup();
  }
});

Deno.test("sidecarsNamedIn: the sessions' folders a transcript names under the projects root", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const file = join(dir, "t.jsonl");
    const root = "C:\\Users\\zoë\\.claude\\projects";
    const lines = [
      { message: { content: `${root}\\C--w-app\\${ORIGINAL}\\tool-results\\x.txt` } },
      { message: { content: `${root}\\C--w-app\\${FORK}\\tool-results\\y.txt ${root}\\k\\z` } },
    ];
    Deno.writeTextFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    assert.deepEqual(sidecarsNamedIn(file, root, "\\"), [
      `${root}\\C--w-app\\${ORIGINAL}`,
      `${root}\\C--w-app\\${FORK}`,
    ]);
    assert.deepEqual(sidecarsNamedIn(file, "/home/u/.claude/projects", "/"), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("P#: the old folder's tool results the session's lines name stay where they are named", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    const saved = withToolResults(folder, ORIGINAL, world.project);
    Deno.writeTextFileSync(world.paths.registryFile, `${ORIGINAL}|${world.project}|Work|1\n`);
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const elsewhere = join(world.dir, "elsewhere");
    Deno.mkdirSync(elsewhere);
    const result = await world.run([], { stdin: `e\np1\n${elsewhere}\nq\nq\n` });
    assert.match(result.stdout, /Path changed: Work/, result.stderr);
    const moved = projectDirFor(world.paths, elsewhere);
    assert.ok(pathExists(join(moved, `${ORIGINAL}.jsonl`)), "the transcript moved");
    assert.ok(pathExists(join(moved, ORIGINAL, "tool-results", "toolu_01.txt")), "with a copy");
    assert.ok(pathExists(saved), "and the files its lines name are still there");
    assert.ok(!pathExists(join(folder, `${ORIGINAL}.jsonl`)), "the old transcript is set aside");
  } finally {
    world.cleanup();
  }
});

Deno.test("a followed fork written in another folder than its predecessor's still keeps the tool results it names", async () => {
  const world = createLaunchWorld();
  try {
    // The predecessor's transcript sits under another key (claude resumes it wherever it is);
    // claude writes the fork into the folder it runs in.
    const other = join(world.paths.projectsDir, "-somewhere-else");
    const saved = withToolResults(other, ORIGINAL, world.project);
    Deno.writeTextFileSync(world.paths.registryFile, `${ORIGINAL}|${world.project}|Work|1\n`);
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["carry on"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => s.guid), [FORK]);
    const folder = projectDirFor(world.paths, world.project);
    assert.ok(pathExists(join(folder, `${FORK}.jsonl`)), "the fork is in the folder claude ran in");
    assert.ok(!pathExists(join(other, `${ORIGINAL}.jsonl`)), "the predecessor is set aside");
    assert.ok(pathExists(saved), "the tool results stay where the fork names them");
  } finally {
    world.cleanup();
  }
});

Deno.test("delete: the tool results another registered session's lines name stay, here and in the vault", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    const saved = withToolResults(folder, ORIGINAL, world.project);
    // A /branch copy, registered beside the original: its copied lines name the original's file.
    save(
      folder,
      new TranscriptBuilder({ sessionId: FORK, cwd: world.project })
        .prompt("Run the build")
        .tool("Bash", { command: "make" }, `Output too large (2MB). Full output saved to: ${saved}`)
        .text("Built.")
        .turnEnd(),
    );
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${ORIGINAL}|${world.project}|Work|1\n${FORK}|${world.project}|Branch|1\n`,
    );
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    const result = await world.run(["delete", "1", "--yes"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => s.guid), [FORK]);
    assert.ok(!pathExists(join(folder, `${ORIGINAL}.jsonl`)), "the transcript is deleted");
    assert.equal(Deno.readTextFileSync(saved), "the whole output\n", "reachable where named");
    assert.match(result.stdout + result.stderr, new RegExp(`session ${FORK}'s lines name files`));
    const vault = vaultFilesFor(world.paths, { guid: ORIGINAL, dir: world.project });
    assert.ok(!pathExists(vault.transcript), "the vault's copy of the transcript goes");
    assert.ok(
      pathExists(join(vault.sidecar, "tool-results", "toolu_01.txt")),
      "the vault keeps it",
    );
    // An entry of a sidecar alone: the vault's views and its prune take it as it is.
    for (const args of [["vault"], ["vault", "sync"], ["doctor"]]) {
      const shown = await world.run(args);
      assert.ok(shown.code === 0 || args[0] === "doctor", `${args.join(" ")}: ${shown.stderr}`);
      assert.doesNotMatch(shown.stderr, /\bat .*\.ts:\d+/, "no stack trace");
    }
    const prune = await world.run(["vault", "prune"]);
    assert.equal(prune.code, 0, prune.stderr);
    assert.match(prune.stdout, new RegExp(`keeping ${ORIGINAL}: registered session ${FORK}`));
    assert.ok(pathExists(join(vault.sidecar, "tool-results", "toolu_01.txt")), "not pruned");
    // Once nothing registered names it, a delete of the branch takes it with its own files.
    assert.equal((await world.run(["delete", "1", "--yes"])).code, 0);
    assert.ok(pathExists(saved), "not the branch's to delete: it is another session's folder");
  } finally {
    world.cleanup();
  }
});

Deno.test("delete: a registered session in another folder that names the tool results keeps them too", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    const saved = withToolResults(folder, ORIGINAL, world.project);
    // The branch was made from another folder (claude writes a copy where it runs).
    const elsewhere = `${world.dir}/elsewhere`;
    Deno.mkdirSync(elsewhere);
    const otherFolder = projectDirFor(world.paths, elsewhere);
    Deno.mkdirSync(otherFolder, { recursive: true });
    save(
      otherFolder,
      new TranscriptBuilder({ sessionId: FORK, cwd: elsewhere })
        .prompt("Run the build")
        .tool("Bash", { command: "make" }, `Output too large (2MB). Full output saved to: ${saved}`)
        .text("Built.")
        .turnEnd(),
    );
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${ORIGINAL}|${world.project}|Work|1\n${FORK}|${elsewhere}|Branch|1\n`,
    );
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["delete", "1", "--yes"]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!pathExists(join(folder, `${ORIGINAL}.jsonl`)), "the transcript is deleted");
    assert.equal(Deno.readTextFileSync(saved), "the whole output\n", "reachable where named");
  } finally {
    world.cleanup();
  }
});

Deno.test("quarantine: a registered session in another folder that names the orphan's tool results keeps them", async () => {
  const world = createFakeWorld();
  try {
    const test = createTestContext({ env: world.env, cwd: world.project });
    const { paths } = test.ctx;
    const folder = projectDirFor(paths, world.project);
    const saved = withToolResults(folder, ORIGINAL, world.project);
    const elsewhere = `${world.project}-elsewhere`;
    Deno.mkdirSync(elsewhere);
    const otherFolder = projectDirFor(paths, elsewhere);
    Deno.mkdirSync(otherFolder, { recursive: true });
    save(
      otherFolder,
      new TranscriptBuilder({ sessionId: FORK, cwd: elsewhere })
        .prompt("Run the build")
        .tool("Bash", { command: "make" }, `Full output saved to: ${saved}`),
    );
    writeRegistryText(paths, `${FORK}|${elsewhere}|Branch|1\n`);
    const stamp = stampFile(join(folder, `${ORIGINAL}.jsonl`));
    assert.ok(await quarantineOrphan(test.ctx, { guid: ORIGINAL, stamp }, { dir: world.project }));
    assert.ok(pathExists(saved), "named by the registered branch in the other folder: stays");
  } finally {
    world.cleanup();
  }
});
