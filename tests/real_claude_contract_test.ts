// Contract tests: the facts about the real Claude Code CLI that claudecm and the
// fake claude rely on (DESIGN.md section 4), checked against the pinned real CLI
// in -p mode. Ignored (visibly) unless CLAUDECM_REAL_CLAUDE names it; .ci/run
// installs it. If one of these fails after a version bump, the CLI changed:
// update DESIGN.md, the fake (fixtures/fake/) and its fixtures together.
import assert from "node:assert/strict";
import { encodeProjectKey, projectKey } from "../lib/core/project_key.ts";
import { parsePrintJson } from "../lib/platform/claude.ts";
import { parseClaudeHelp } from "../lib/platform/claude_features.ts";
import { continuesHistory } from "../lib/transcript/conversation.ts";
import { isPrintCallTranscript } from "../lib/transcript/session_facts.ts";
import {
  createRealWorld,
  jsonlFiles,
  PINNED_VERSION,
  projectDirs,
  readJsonl,
  REAL_CLAUDE,
  type RealWorld,
  runReal,
} from "./helpers/real_claude.ts";

const ignore = REAL_CLAUDE === undefined;
const HELP = Deno.readTextFileSync(new URL("../fixtures/claude-help-2.1.332.txt", import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function contract(name: string, fn: (world: RealWorld) => Promise<void>): void {
  Deno.test({
    name: `real claude: ${name}`,
    ignore,
    fn: async () => {
      const world = createRealWorld();
      try {
        await fn(world);
      } finally {
        world.cleanup();
      }
    },
  });
}

/** `echo PROMPT | claude -p --output-format json ARGS`, parsed. */
async function print(world: RealWorld, cwd: string, args: string[], env?: Record<string, string>) {
  const run = await runReal(world, ["-p", "--output-format", "json", ...args], {
    cwd,
    stdin: "hi\n",
    env,
  });
  const lines = run.stdout.split("\n").filter((line) => line.trim() !== "");
  return { ...run, lines, json: lines.length === 1 ? JSON.parse(lines[0]) : undefined };
}

contract("is the pinned version, and its help is the one the fake serves", async (world) => {
  const cwd = world.project("p");
  assert.equal(
    (await runReal(world, ["--version"], { cwd })).stdout,
    `${PINNED_VERSION} (Claude Code)\n`,
  );
  const help = (await runReal(world, ["--help"], { cwd })).stdout;
  assert.equal(
    help,
    HELP,
    "refresh fixtures/claude-help-2.1.332.txt (and the fake) for a new version",
  );
  assert.deepEqual(parseClaudeHelp(help), {
    sessionId: true,
    name: true,
    forkSession: true,
    noSessionPersistence: true,
  });
});

contract(
  "-p --output-format json prints one object with result and session_id, and writes that transcript",
  async (world) => {
    const cwd = world.project("p");
    const run = await print(world, cwd, []);
    assert.equal(run.lines.length, 1, "exactly one JSON line");
    assert.equal(run.json.type, "result");
    assert.equal(typeof run.json.result, "string");
    assert.equal(typeof run.json.is_error, "boolean");
    assert.match(run.json.session_id, UUID);
    // Refresh takes the new session's id from this answer and nowhere else (spec 11.14 step 9).
    assert.deepEqual(parsePrintJson(run.stdout), {
      sessionId: run.json.session_id,
      result: run.json.result,
      isError: run.json.is_error,
    });
    assert.equal(run.code, run.json.is_error ? 1 : 0, "offline it is 'Not logged in', exit 1");
    assert.deepEqual(jsonlFiles(`${world.root}/projects/${projectKey(cwd)}`), [
      `${run.json.session_id}.jsonl`,
    ]);
  },
);

contract(
  "a -p call's transcript says sdk-cli, and claudecm's one rule takes it for a print call",
  async (world) => {
    const cwd = world.project("p");
    const folder = `${world.root}/projects/${projectKey(cwd)}`;
    // The prompt on stdin, and as an argument: both are print mode.
    const piped = await print(world, cwd, []);
    const argued = await runReal(world, ["-p", "--output-format", "json", "hello there"], { cwd });
    for (const id of [piped.json.session_id, JSON.parse(argued.stdout).session_id]) {
      const path = `${folder}/${id}.jsonl`;
      const users = readJsonl(path).filter((line) => line.type === "user");
      assert.ok(users.length > 0, "a user line");
      assert.deepEqual([...new Set(users.map((line) => line.entrypoint))], ["sdk-cli"]);
      assert.equal(isPrintCallTranscript(path), true, "not a session to register or warn about");
    }
  },
);

contract("--no-session-persistence writes no transcript", async (world) => {
  const cwd = world.project("p");
  const run = await print(world, cwd, ["--no-session-persistence"]);
  assert.match(run.json.session_id, UUID);
  assert.deepEqual(jsonlFiles(`${world.root}/projects/${projectKey(cwd)}`), []);
});

contract(
  "--session-id and -n: the transcript is <id>.jsonl and starts with custom-title, agent-name",
  async (world) => {
    const cwd = world.project("p");
    const id = crypto.randomUUID();
    const run = await print(world, cwd, ["--session-id", id, "-n", "desktop - My Project"]);
    assert.equal(run.json.session_id, id);
    const lines = readJsonl(`${world.root}/projects/${projectKey(cwd)}/${id}.jsonl`);
    assert.deepEqual(lines.slice(0, 2), [
      { type: "custom-title", customTitle: "desktop - My Project", sessionId: id },
      { type: "agent-name", agentName: "desktop - My Project", sessionId: id },
    ]);
  },
);

contract(
  "--session-id: 'already in use' only within the same project dir; a non-uuid is refused",
  async (world) => {
    const cwd = world.project("p");
    const id = crypto.randomUUID();
    assert.equal((await print(world, cwd, ["--session-id", id])).json.session_id, id);
    const again = await print(world, cwd, ["--session-id", id]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, `Error: Session ID ${id} is already in use.\n`);
    const elsewhere = await print(world, world.project("q"), ["--session-id", id]);
    assert.equal(elsewhere.json?.session_id, id, "another project dir may reuse the id");
    const bad = await print(world, cwd, ["--session-id", "not-a-uuid"]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, "Error: Invalid session ID. Must be a valid UUID.\n");
  },
);

contract(
  "project key of a long, a symlinked and a unicode cwd equals projectKey/encodeProjectKey",
  async (world) => {
    const long = world.project(
      Array.from({ length: 12 }, (_, i) => `segment-${i}_long.name`).join("/"),
    );
    const unicode = world.project("café ☕/日本");
    const real = world.project("real dir");
    const link = `${world.dir}/link`;
    Deno.symlinkSync(real, link);
    const cases: Array<[string, string]> = [[long, long], [unicode, unicode], [link, real]];
    for (const [cwd, realpath] of cases) {
      const before = new Set(projectDirs(world.root));
      await print(world, cwd, [], { PWD: cwd });
      const created = projectDirs(world.root).filter((dir) => !before.has(dir));
      assert.deepEqual(created, [projectKey(cwd)], cwd);
      assert.equal(created[0], encodeProjectKey(realpath));
    }
    assert.ok(encodeProjectKey(long).length > 200, "the long case exercises the hash suffix");
    const cwdField = readJsonl(
      `${world.root}/projects/${projectKey(link)}/${
        jsonlFiles(`${world.root}/projects/${projectKey(link)}`)[0]
      }`,
    )
      .find((line) => line.type === "user")!.cwd;
    assert.equal(cwdField, real, "lines record the realpath, not the symlink");
  },
);

contract(
  "--resume appends to the same file, even from another project dir; unknown ids are refused",
  async (world) => {
    const cwd = world.project("p");
    const id = (await print(world, cwd, [])).json.session_id;
    const file = `${world.root}/projects/${projectKey(cwd)}/${id}.jsonl`;
    const first = readJsonl(file).length;
    assert.equal((await print(world, cwd, ["--resume", id])).json.session_id, id);
    const second = readJsonl(file).length;
    assert.ok(second > first, "appended");
    const other = world.project("other");
    assert.equal((await print(world, other, ["--resume", id])).json.session_id, id);
    assert.ok(readJsonl(file).length > second, "appended to the original file");
    assert.deepEqual(jsonlFiles(`${world.root}/projects/${projectKey(other)}`), []);
    assert.deepEqual(
      jsonlFiles(`${world.root}/projects/${projectKey(cwd)}`),
      [`${id}.jsonl`],
      "no fork",
    );
    const unknown = crypto.randomUUID();
    const missing = await print(world, cwd, ["--resume", unknown]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, `No conversation found with session ID: ${unknown}\n`);
  },
);

contract(
  "--resume of a transcript with no message in it is refused as if it were not there",
  async (world) => {
    const cwd = world.project("p");
    const id = crypto.randomUUID();
    const dir = `${world.root}/projects/${projectKey(cwd)}`;
    Deno.mkdirSync(dir, { recursive: true });
    const title = { type: "custom-title", customTitle: "x", sessionId: id };
    Deno.writeTextFileSync(`${dir}/${id}.jsonl`, JSON.stringify(title) + "\n");
    const refused = await print(world, cwd, ["--resume", id]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `No conversation found with session ID: ${id}\n`);
  },
);

contract(
  "--fork-session copies the history under a new id (or --session-id); the original stays",
  async (world) => {
    const cwd = world.project("p");
    const id = (await print(world, cwd, [])).json.session_id;
    const dir = `${world.root}/projects/${projectKey(cwd)}`;
    const original = Deno.readTextFileSync(`${dir}/${id}.jsonl`);
    const chosen = crypto.randomUUID();
    const refused = await print(world, cwd, ["--resume", id, "--session-id", chosen]);
    assert.equal(
      refused.stderr,
      "Error: --session-id with --continue or --resume also needs --fork-session.\n",
    );
    const fork = await print(world, cwd, [
      "--resume",
      id,
      "--fork-session",
      "--session-id",
      chosen,
    ]);
    assert.equal(fork.json.session_id, chosen);
    assert.equal(Deno.readTextFileSync(`${dir}/${id}.jsonl`), original);
    const lines = readJsonl(`${dir}/${chosen}.jsonl`);
    assert.ok(lines.every((line) => line.sessionId === undefined || line.sessionId === chosen));
    const prompts = lines.filter((line) => line.type === "user" && !line.isMeta);
    assert.equal(prompts.length, 2, "the copied prompt and the new one");
    // The copies keep their uuids: that is how a fork is told from a /clear (next_session.ts).
    assert.ok(continuesHistory(`${dir}/${chosen}.jsonl`, `${dir}/${id}.jsonl`));
    const unrelated = (await print(world, cwd, [])).json.session_id;
    assert.ok(!continuesHistory(`${dir}/${unrelated}.jsonl`, `${dir}/${id}.jsonl`));
  },
);

contract("CLAUDE_CONFIG_DIR moves the whole root", async (world) => {
  const cwd = world.project("p");
  const root = `${world.dir}/elsewhere`;
  const run = await print(world, cwd, [], { CLAUDE_CONFIG_DIR: root });
  assert.deepEqual(jsonlFiles(`${root}/projects/${projectKey(cwd)}`), [
    `${run.json.session_id}.jsonl`,
  ]);
  assert.deepEqual(projectDirs(world.root), []);
});

Deno.test({
  name: "real claude: as root, --dangerously-skip-permissions is refused unless IS_SANDBOX=1",
  ignore: ignore || Deno.uid() !== 0,
  fn: async () => {
    const world = createRealWorld();
    try {
      const cwd = world.project("p");
      const refused = await print(world, cwd, ["--dangerously-skip-permissions"]);
      assert.equal(refused.code, 1);
      assert.equal(
        refused.stderr,
        "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n",
      );
      const sandboxed = await print(world, cwd, ["--dangerously-skip-permissions"], {
        IS_SANDBOX: "1",
      });
      assert.equal(sandboxed.json?.type, "result");
    } finally {
      world.cleanup();
    }
  },
});
