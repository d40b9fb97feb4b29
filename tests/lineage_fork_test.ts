// Issue 30 item 4: fork detection reads claude's own lineage records where it
// wrote them (lib/transcript/lineage.ts): `/branch`'s forkedFrom in the new
// session, `continued-in` in the old one.
import assert from "node:assert/strict";
import { join } from "../lib/core/path.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { classifyNext } from "../lib/app/session/next_session.ts";
import { lineageLogPath } from "../lib/store/lineage_log.ts";
import { createLaunchWorld, useClaudeScript } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { ON_WINDOWS } from "./helpers/portable.ts";

const OLD = sessionId(0xa1);
const NEXT = sessionId(0xb2);

function withDir(fn: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync();
  try {
    fn(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

function writeLines(path: string, lines: unknown[]): string {
  Deno.writeTextFileSync(path, lines.map((line) => JSON.stringify(line) + "\n").join(""));
  return path;
}

const message = (id: string, uuid: string) => ({
  type: "user",
  uuid,
  sessionId: id,
  message: { role: "user", content: "hi" },
});

Deno.test("classifyNext: a /branch copy's forkedFrom makes it a branch, even with the original gone", () => {
  withDir((dir) => {
    const nextPath = writeLines(join(dir, `${NEXT}.jsonl`), [
      { ...message(NEXT, "u1"), forkedFrom: { sessionId: OLD, messageUuid: "u1" } },
    ]);
    const options = { nextPath, resumedPath: null, resumedGuid: OLD, extraArgs: [] };
    assert.deepEqual(classifyNext(NEXT, options), { kind: "branch", guid: NEXT, recorded: true });
    // Copied from another session: not this one's fork.
    const other = { ...options, resumedGuid: sessionId(0xc3) };
    assert.deepEqual(classifyNext(NEXT, other), { kind: "cleared", guid: NEXT });
  });
});

Deno.test("classifyNext: the old session's continued-in names the next one: a fork, no uuid shared", () => {
  withDir((dir) => {
    const nextPath = writeLines(join(dir, `${NEXT}.jsonl`), [message(NEXT, "n1")]);
    const resumedPath = writeLines(join(dir, `${OLD}.jsonl`), [
      message(OLD, "o1"),
      { type: "continued-in", timestamp: "t", sessionId: OLD, continuedInSessionId: NEXT },
    ]);
    assert.deepEqual(
      classifyNext(NEXT, { nextPath, resumedPath, extraArgs: [] }),
      { kind: "fork", guid: NEXT },
    );
    writeLines(resumedPath, [message(OLD, "o1")]);
    assert.deepEqual(
      classifyNext(NEXT, { nextPath, resumedPath, extraArgs: [] }),
      { kind: "cleared", guid: NEXT },
    );
  });
});

Deno.test({
  name: "a resume that claude continued in a session elsewhere (continued-in): the row follows it",
  ignore: ON_WINDOWS, // The claude script is a POSIX shell shim.
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const folder = projectDirFor(world.paths, world.project);
      Deno.mkdirSync(folder, { recursive: true });
      save(folder, finishedSession({ sessionId: OLD, cwd: world.project }));
      Deno.writeTextFileSync(world.paths.registryFile, `${OLD}|${world.project}|Work|1\n`);
      // The continuation runs in another folder (a worktree): no new file here to tell it by.
      const elsewhere = join(world.paths.projectsDir, "-elsewhere");
      const record = { type: "continued-in", sessionId: OLD, continuedInSessionId: NEXT };
      useClaudeScript(
        world,
        `const old = ${JSON.stringify(join(folder, `${OLD}.jsonl`))};
Deno.writeTextFileSync(old, ${JSON.stringify(JSON.stringify(record) + "\n")}, { append: true });
Deno.mkdirSync(${JSON.stringify(elsewhere)}, { recursive: true });
Deno.writeTextFileSync(${JSON.stringify(join(elsewhere, `${NEXT}.jsonl`))},
  ${JSON.stringify(JSON.stringify({ ...message(NEXT, "n1"), cwd: world.project }) + "\n")});
`,
      );
      world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
      const result = await world.run(["1"]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(world.sessions().map((s) => [s.guid, s.desc]), [[NEXT, "Work"]]);
      assert.match(result.stderr, new RegExp(`Claude continued this session as ${NEXT}`));
      assert.ok(pathExists(join(world.paths.backupDir, "project", `${OLD}.jsonl`)));
    } finally {
      world.cleanup();
    }
  },
});

Deno.test("a continued-in written before this resume is not this resume's: the row stays", async () => {
  const world = createLaunchWorld();
  try {
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    save(folder, finishedSession({ sessionId: OLD, cwd: world.project }));
    const record = { type: "continued-in", sessionId: OLD, continuedInSessionId: NEXT };
    Deno.writeTextFileSync(join(folder, `${OLD}.jsonl`), JSON.stringify(record) + "\n", {
      append: true,
    });
    const elsewhere = join(world.paths.projectsDir, "-elsewhere");
    Deno.mkdirSync(elsewhere, { recursive: true });
    writeLines(join(elsewhere, `${NEXT}.jsonl`), [{ ...message(NEXT, "n1"), cwd: world.project }]);
    Deno.writeTextFileSync(world.paths.registryFile, `${OLD}|${world.project}|Work|1\n`);
    world.claudeScenario({ messages: ["carry on"] });
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    const result = await world.run(["1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(world.sessions().map((s) => s.guid), [OLD]);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name:
    "a /branch inside a resumed session: the original keeps its row and its transcript, the branch gets its own",
  ignore: ON_WINDOWS, // The claude script is a POSIX shell shim.
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const folder = projectDirFor(world.paths, world.project);
      Deno.mkdirSync(folder, { recursive: true });
      save(folder, finishedSession({ sessionId: OLD, cwd: world.project }));
      Deno.writeTextFileSync(world.paths.registryFile, `${OLD}|${world.project}|Work|1\n`);
      // What /branch writes (2.1.332): the history copied, each line stamped with forkedFrom.
      useClaudeScript(
        world,
        `const folder = ${JSON.stringify(folder)};
const lines = Deno.readTextFileSync(folder + "/${OLD}.jsonl").trimEnd().split("\\n")
  .map((line) => JSON.parse(line)).filter((line) => typeof line.uuid === "string")
  .map((line) => ({ ...line, sessionId: "${NEXT}",
    forkedFrom: { sessionId: "${OLD}", messageUuid: line.uuid } }));
Deno.writeTextFileSync(folder + "/${NEXT}.jsonl",
  lines.map((line) => JSON.stringify(line) + "\\n").join(""));
`,
      );
      world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
      const result = await world.run(["1"], { stdin: "The branch\n" });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(
        world.sessions().map((s) => [s.guid, s.desc]).sort(),
        [[NEXT, "The branch"], [OLD, "Work"]].sort(),
      );
      assert.ok(pathExists(join(folder, `${OLD}.jsonl`)), "claude -r OLD still finds it");
      assert.ok(!pathExists(join(world.paths.backupDir, "project")), "nothing set aside");
      // Claude recorded this branch itself: claudecm's log does not call it a --fork-session.
      const log = lineageLogPath(world.paths);
      assert.ok(!pathExists(log) || !Deno.readTextFileSync(log).includes("fork-session"));
    } finally {
      world.cleanup();
    }
  },
});
