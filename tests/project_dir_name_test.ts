// CLAUDE_CODE_PROJECT_DIR_NAME (issue 30 item 5): with CLAUDE_CONFIG_DIR set,
// claude 2.1.332 keeps every project's transcripts in `projects/<that name>/`
// (tests/real_claude_project_dir_contract_test.ts pins it); the one
// project-folder function follows, so every flow looks where claude wrote.
import assert from "node:assert/strict";
import { join } from "node:path";
import { projectDirFor, projectFolderName, resolvePaths } from "../lib/core/paths.ts";
import { projectKey } from "../lib/core/project_key.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { createMemoryOutput } from "../lib/ui/output.ts";
import { type FindJson, runFind } from "../lib/app/find/find.ts";
import type { AdoptCandidate } from "../lib/app/adopt/adopt_model.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { readSessionFolder } from "../lib/transcript/session_folder.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("resolvePaths: CLAUDE_CODE_PROJECT_DIR_NAME is the folder of every project, as claude takes it", () => {
  const base = { HOME: "/h", CLAUDE_CONFIG_DIR: "/c" };
  const named = resolvePaths(env({ ...base, CLAUDE_CODE_PROJECT_DIR_NAME: "all_of-it" }), "linux");
  assert.equal(projectFolderName(named, "/w/app"), "all_of-it");
  assert.equal(projectDirFor(named, "/w/app"), "/c/projects/all_of-it");
  assert.equal(projectDirFor(named, "/w/other"), "/c/projects/all_of-it");
  // Names claude ignores, and the name without CLAUDE_CONFIG_DIR: the folder's own key.
  for (const name of ["", "a.b", "a/b", "x".repeat(65), "CON", "lpt1", "nul"]) {
    const paths = resolvePaths(env({ ...base, CLAUDE_CODE_PROJECT_DIR_NAME: name }), "linux");
    assert.equal(paths.projectDirName, undefined, name);
    assert.equal(projectFolderName(paths, "/w/app"), projectKey("/w/app"), name);
  }
  const unset = resolvePaths(env({ HOME: "/h", CLAUDE_CODE_PROJECT_DIR_NAME: "all" }), "linux");
  assert.equal(projectDirFor(unset, "/w/app"), `/h/.claude/projects/${projectKey("/w/app")}`);
});

Deno.test("resolvePaths: claude's root is in NFC, whichever form CLAUDE_CONFIG_DIR or HOME has", () => {
  const nfd = "/tmp/cafe\u0301";
  const nfc = "/tmp/caf\u00e9";
  assert.equal(resolvePaths(env({ HOME: "/h", CLAUDE_CONFIG_DIR: nfd }), "linux").claudeRoot, nfc);
  assert.equal(resolvePaths(env({ HOME: nfd }), "linux").claudeRoot, `${nfc}/.claude`);
  assert.equal(resolvePaths(env({ HOME: nfd }), "linux").projectsDir, `${nfc}/.claude/projects`);
});

const ORIGINAL = sessionId(0xa1);
const FORK = "f0f0f0f0-0000-4000-8000-00000000f0f0";

/** A launch world whose claude keeps every project in `projects/shared/`. */
function sharedWorld(): LaunchWorld {
  const world = createLaunchWorld();
  world.env.CLAUDE_CODE_PROJECT_DIR_NAME = "shared";
  world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
  return { ...world, paths: resolvePaths((name) => world.env[name], Deno.build.os) };
}

Deno.test("CLAUDE_CODE_PROJECT_DIR_NAME: other folders' sessions in the shared dir are no orphans", async () => {
  const world = sharedWorld();
  try {
    const shared = join(world.paths.projectsDir, "shared");
    Deno.mkdirSync(shared, { recursive: true });
    const elsewhere = join(world.dir, "elsewhere");
    Deno.mkdirSync(elsewhere);
    save(shared, finishedSession({ sessionId: ORIGINAL, cwd: world.project }));
    save(shared, finishedSession({ sessionId: sessionId(0xb2), cwd: elsewhere }));
    save(shared, finishedSession({ sessionId: sessionId(0xb3), cwd: elsewhere }));
    Deno.writeTextFileSync(
      world.paths.registryFile,
      `${ORIGINAL}|${world.project}|Seeded|1\n${sessionId(0xb3)}|${elsewhere}|Other|1\n`,
    );
    world.claudeScenario({ messages: ["carry on"] });
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /Multiple conversation files found/);
    // An orphan of this folder in the shared dir is still found.
    save(shared, finishedSession({ sessionId: sessionId(0xb4), cwd: world.project }));
    const again = await world.run(["1"]);
    assert.match(again.stderr, /Multiple conversation files found/);
    assert.equal(again.stderr.match(/^ +\d+\. .*\(orphan\)/gm)?.length, 1, again.stderr);
  } finally {
    world.cleanup();
  }
});

Deno.test("CLAUDE_CODE_PROJECT_DIR_NAME: a fork on resume is followed", async () => {
  const world = sharedWorld();
  try {
    const shared = join(world.paths.projectsDir, "shared");
    Deno.mkdirSync(shared, { recursive: true });
    save(shared, finishedSession({ sessionId: ORIGINAL, cwd: world.project }));
    Deno.writeTextFileSync(world.paths.registryFile, `${ORIGINAL}|${world.project}|Seeded|1\n`);
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["carry on"] });
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc]), [[FORK, "Seeded"]]);
    assert.ok(pathExists(join(shared, `${FORK}.jsonl`)));
    assert.ok(!pathExists(join(shared, `${ORIGINAL}.jsonl`)), "the predecessor is set aside");
    assert.ok(pathExists(join(world.paths.backupDir, "project", `${ORIGINAL}.jsonl`)));
  } finally {
    world.cleanup();
  }
});

Deno.test("CLAUDE_CODE_PROJECT_DIR_NAME: find --project keeps to its folder in the shared dir", async () => {
  const t = createTestContext({
    env: { CLAUDE_CODE_PROJECT_DIR_NAME: "shared" },
    now: new Date("2026-11-30T12:00:00Z"),
    interactive: false,
  });
  try {
    const shared = join(t.ctx.paths.projectsDir, "shared");
    Deno.mkdirSync(shared, { recursive: true });
    const ids: Record<string, string> = {};
    for (const name of ["app", "other"]) {
      const cwd = join(t.home, name);
      Deno.mkdirSync(cwd);
      const builder = new TranscriptBuilder({ cwd, start: new Date("2026-10-05T10:00:00Z") })
        .prompt("the gerenuk release");
      builder.write(join(shared, `${builder.sessionId}.jsonl`));
      ids[cwd] = builder.sessionId;
    }
    for (const index of [true, false]) {
      for (const cwd of Object.keys(ids)) {
        const out = createMemoryOutput();
        t.ctx.out = out;
        const code = await runFind(t.ctx, { terms: ["gerenuk"], json: true, index, project: cwd });
        assert.equal(code, 0);
        const found = JSON.parse(out.text()) as FindJson;
        assert.deepEqual(found.results.map((r) => r.sessionId), [ids[cwd]], `${cwd} ${index}`);
      }
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("CLAUDE_CODE_PROJECT_DIR_NAME: move stamps OLD's transcripts in the shared dir where they stay", async () => {
  const world = sharedWorld();
  try {
    const shared = join(world.paths.projectsDir, "shared");
    Deno.mkdirSync(shared, { recursive: true });
    const old = join(world.dir, "work", "app");
    const renamed = join(world.dir, "work", "renamed");
    const other = join(world.dir, "elsewhere");
    for (const dir of [join(old, "sub"), other]) Deno.mkdirSync(dir, { recursive: true });
    const [registered, loose, sub, foreign] = [0xc1, 0xc2, 0xc3, 0xc4].map(sessionId);
    save(shared, finishedSession({ sessionId: registered, cwd: old }));
    save(shared, finishedSession({ sessionId: loose, cwd: old }));
    save(shared, finishedSession({ sessionId: sub, cwd: join(old, "sub") }));
    save(shared, finishedSession({ sessionId: foreign, cwd: other }));
    Deno.mkdirSync(join(shared, registered, "tool-results"), { recursive: true });
    Deno.writeTextFileSync(join(shared, registered, "tool-results", "r1.txt"), "output\n");
    Deno.writeTextFileSync(world.paths.registryFile, `${registered}|${old}|Seeded|1\n`);
    const names = () => [...Deno.readDirSync(shared)].map((entry) => entry.name).sort();
    const before = names();
    const foreignText = Deno.readTextFileSync(join(shared, `${foreign}.jsonl`));
    Deno.renameSync(old, renamed);
    const move = () => world.run(["move", old, renamed], { cwd: world.dir });
    const result = await move();
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Moved 0 transcript\(s\), 1 row\(s\)/);
    assert.match(result.stdout, /3 transcript\(s\) stay in .*shared/);
    assert.deepEqual(names(), before, "nothing renamed in the shared dir");
    const relocations = (id: string) =>
      Deno.readTextFileSync(join(shared, `${id}.jsonl`)).split("\n")
        .filter((line) => line.includes('"type":"relocated"')).length;
    for (
      const [id, now] of [[registered, renamed], [loose, renamed], [sub, join(renamed, "sub")]]
    ) {
      assert.deepEqual(readSessionFolder(join(shared, `${id}.jsonl`)), {
        ...readSessionFolder(join(shared, `${id}.jsonl`)),
        folder: now,
        relocated: true,
      }, id);
      assert.equal(relocations(id), 1, id);
    }
    assert.equal(Deno.readTextFileSync(join(shared, `${foreign}.jsonl`)), foreignText);
    assert.deepEqual(world.sessions().map((s) => s.dir), [renamed]);
    // In claudecm's eyes the unregistered ones are NEW's now: adopt in NEW offers them.
    const adopt = await world.run(["adopt", "--dry-run", "--json"], { cwd: renamed });
    assert.equal(adopt.code, 0, adopt.stderr);
    const candidates = (JSON.parse(adopt.stdout) as { candidates: AdoptCandidate[] }).candidates;
    assert.deepEqual(
      candidates.map((c) => [c.sessionId, c.dir]).sort(),
      [[loose, renamed], [sub, join(renamed, "sub")], [foreign, other]].sort(),
    );
    // Run again: nothing left, and no second record.
    assert.match((await move()).stdout, /Nothing to do/);
    assert.equal(relocations(loose), 1);
  } finally {
    world.cleanup();
  }
});

Deno.test("CLAUDE_CODE_PROJECT_DIR_NAME: a move killed after its stamps is finished by a rerun that stamps none twice", async () => {
  const world = sharedWorld();
  try {
    const shared = join(world.paths.projectsDir, "shared");
    Deno.mkdirSync(shared, { recursive: true });
    const old = join(world.dir, "work", "app");
    const renamed = join(world.dir, "work", "renamed");
    Deno.mkdirSync(old, { recursive: true });
    const [registered, loose, later] = [0xd1, 0xd2, 0xd3].map(sessionId);
    for (const id of [registered, loose, later]) {
      save(shared, finishedSession({ sessionId: id, cwd: old }));
    }
    Deno.writeTextFileSync(world.paths.registryFile, `${registered}|${old}|Seeded|1\n`);
    Deno.renameSync(old, renamed);
    // As a move killed before the rows were written leaves it: two stamped, one not yet.
    for (const id of [registered, loose]) {
      const record = { type: "relocated", sessionId: id, relocatedCwd: renamed };
      Deno.writeTextFileSync(join(shared, `${id}.jsonl`), JSON.stringify(record) + "\n", {
        append: true,
      });
    }
    const result = await world.run(["move", old, renamed], { cwd: world.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /1 transcript\(s\) stay in .*shared/);
    for (const id of [registered, loose, later]) {
      const text = Deno.readTextFileSync(join(shared, `${id}.jsonl`));
      assert.equal(text.split('"type":"relocated"').length - 1, 1, id);
      assert.equal(readSessionFolder(join(shared, `${id}.jsonl`)).folder, renamed, id);
    }
    assert.deepEqual(world.sessions().map((s) => s.dir), [renamed]);
  } finally {
    world.cleanup();
  }
});
