// The fake claude is test infrastructure: these tests hold it to the real CLI's
// observable behaviour (DESIGN.md section 4, pinned in real_claude_contract_test.ts).
import assert from "node:assert/strict";
import { projectKey } from "../lib/core/project_key.ts";
import {
  assertChained,
  createFakeWorld,
  readLines,
  runFake,
  startFake,
  transcripts,
  waitUntil,
} from "./helpers/fakes.ts";
import { pathExists, readDirOrEmpty } from "../lib/core/fs_checks.ts";
import { join } from "../lib/core/path.ts";

const ID = "0b5f3a52-7c1e-4e0f-9a4b-3d2c1b0a9f8e";
const HELP = Deno.readTextFileSync(new URL("../fixtures/claude-help-2.1.332.txt", import.meta.url));
const POSIX = Deno.build.os !== "windows";

Deno.test("fake claude: --version and --help are the real 2.1.332 ones", async () => {
  const world = createFakeWorld();
  try {
    assert.equal((await runFake(world, "claude", ["--version"])).stdout, "2.1.332 (Claude Code)\n");
    assert.equal((await runFake(world, "claude", ["--help"])).stdout, HELP);
    world.claudeScenario({ failVersion: true });
    const broken = await runFake(world, "claude", ["--version"]);
    assert.deepEqual([broken.code, broken.stdout], [1, ""]);
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: manifest at launch, no transcript before the first message, both right at exit", async () => {
  const world = createFakeWorld();
  try {
    const go = `${world.dir}/go`;
    world.claudeScenario({
      steps: [{ waitForFile: go }, { say: "hello world" }, { say: "again" }],
    });
    const run = startFake(world, "claude", ["-n", "my session", "--session-id", ID]);
    // On Windows the .cmd shim runs the fake under cmd.exe, so its pid is not the child's:
    // the manifest is the one that appears.
    const sessions = join(world.claudeRoot, "sessions");
    const manifests = () =>
      readDirOrEmpty(sessions).map((entry) => entry.name).filter((name) => name.endsWith(".json"));
    await waitUntil(() => manifests().length > 0);
    const manifestPath = join(sessions, manifests()[0]);
    const manifest = JSON.parse(Deno.readTextFileSync(manifestPath));
    assert.equal(manifestPath, join(sessions, `${manifest.pid}.json`));
    if (POSIX) assert.equal(manifest.pid, run.child.pid);
    assert.equal(manifest.sessionId, ID);
    assert.equal(manifest.cwd, world.project);
    assert.equal(manifest.kind, "interactive");
    assert.equal(manifest.name, "my session");
    assert.deepEqual(transcripts(world), {}, "no transcript before the first message");
    Deno.writeTextFileSync(go, "");
    const result = await run.done;
    assert.equal(result.code, 0);
    assert.ok(!pathExists(manifestPath), "manifest deleted at exit");
    assert.match(result.stdout, new RegExp(`Resume this session with:\\nclaude --resume ${ID}`));
    const file = join(world.claudeRoot, "projects", projectKey(world.project), `${ID}.jsonl`);
    const lines = readLines(file);
    assert.deepEqual(lines.slice(0, 2), [
      { type: "custom-title", customTitle: "my session", sessionId: ID },
      { type: "agent-name", agentName: "my session", sessionId: ID },
    ]);
    const users = lines.filter((line) => line.type === "user").map((line) =>
      (line.message as { content: string }).content
    );
    assert.deepEqual(users, ["hello world", "again"]);
    assertChained(lines);
    assert.ok(lines.every((line) => line.sessionId === undefined || line.sessionId === ID));
    if (POSIX) {
      assert.equal(Deno.statSync(file).mode! & 0o777, 0o600, "owner-only, as claude writes it");
    }
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: exits with the scenario's code and leaves no transcript when nothing was typed", async () => {
  const world = createFakeWorld();
  try {
    for (const exitCode of [0, 1, 130]) {
      world.claudeScenario({ exitCode });
      const result = await runFake(world, "claude", ["--session-id", crypto.randomUUID()]);
      assert.equal(result.code, exitCode);
      assert.doesNotMatch(result.stdout, /Resume this session/);
    }
    assert.deepEqual(transcripts(world), {});
    assert.deepEqual(
      [...Deno.readDirSync(`${world.claudeRoot}/sessions`)],
      [],
      "manifests removed",
    );
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: --session-id refuses an id in use and one that is not a uuid", async () => {
  const world = createFakeWorld();
  try {
    world.claudeScenario({ messages: ["hi"] });
    assert.equal((await runFake(world, "claude", ["--session-id", ID])).code, 0);
    const again = await runFake(world, "claude", ["--session-id", ID]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, `Error: Session ID ${ID} is already in use.\n`);
    const bad = await runFake(world, "claude", ["--session-id", "not-a-uuid"]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, "Error: Invalid session ID. Must be a valid UUID.\n");
    const elsewhere = `${world.dir}/elsewhere`;
    Deno.mkdirSync(elsewhere);
    assert.equal(
      (await runFake(world, "claude", ["--session-id", ID], { cwd: elsewhere })).code,
      0,
      "in use is per project dir",
    );
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: -p --output-format json prints result and session_id; --no-session-persistence writes nothing", async () => {
  const world = createFakeWorld();
  try {
    world.claudeScenario({ printResult: "the answer" });
    const result = await runFake(
      world,
      "claude",
      ["-p", "--output-format", "json", "-n", "named"],
      { stdin: "the prompt\n" },
    );
    assert.equal(result.code, 0);
    const json = JSON.parse(result.stdout);
    assert.equal(json.type, "result");
    assert.equal(json.result, "the answer");
    assert.equal(json.is_error, false);
    const file = `${world.claudeRoot}/projects/${
      projectKey(world.project)
    }/${json.session_id}.jsonl`;
    const lines = readLines(file);
    assert.deepEqual(lines.slice(0, 2).map((line) => line.type), ["custom-title", "agent-name"]);
    const user = lines.find((line) => line.type === "user")!;
    assert.equal((user.message as { content: string }).content, "the prompt\n");
    assert.equal(user.entrypoint, "sdk-cli");

    const before = transcripts(world);
    const ephemeral = await runFake(world, "claude", [
      "-p",
      "--output-format",
      "json",
      "--no-session-persistence",
    ], { stdin: "x" });
    assert.equal(ephemeral.code, 0);
    assert.match(JSON.parse(ephemeral.stdout).session_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(transcripts(world), before);

    const empty = await runFake(world, "claude", ["-p"], { stdin: "" });
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /^Error: Input must be provided/);
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: records argv; an option its help lacks is unknown, as on an older claude", async () => {
  const world = createFakeWorld();
  try {
    world.claudeScenario({ helpWithout: ["--session-id", "--name"] });
    const result = await runFake(world, "claude", ["--session-id", ID, "-n", "x"]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, "error: unknown option '--session-id'\n");
    assert.doesNotMatch((await runFake(world, "claude", ["--help"])).stdout, /--session-id|--name/);
    assert.deepEqual(world.argv("claude").map((entry) => entry.argv), [[
      "--session-id",
      ID,
      "-n",
      "x",
    ], ["--help"]]);
    assert.equal(world.argv("claude")[0].cwd, world.project);
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "fake claude: never reads a piped stdin in interactive mode, so later readers get it",
  ignore: !POSIX,
  fn: async () => {
    const world = createFakeWorld();
    try {
      world.claudeScenario({ messages: ["typed by the scenario"] });
      const output = await new Deno.Command("sh", {
        args: [
          "-c",
          `"$0" --session-id ${ID}; read answer; echo "after:$answer"`,
          world.claudePath,
        ],
        cwd: world.project,
        env: world.env,
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
      }).spawn();
      const writer = output.stdin.getWriter();
      await writer.write(new TextEncoder().encode("meant for claudecm\n"));
      await writer.close();
      const text = new TextDecoder().decode((await output.output()).stdout);
      assert.match(text, /after:meant for claudecm/);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name:
    "fake claude: Ctrl-C, kill and hang-up remove the manifest and exit with the real codes (0, 143, 129)",
  ignore: !POSIX,
  fn: async () => {
    const world = createFakeWorld();
    try {
      world.claudeScenario({ steps: [{ waitForFile: `${world.dir}/never` }] });
      for (const [signal, code] of [["SIGINT", 0], ["SIGTERM", 143], ["SIGHUP", 129]] as const) {
        const run = startFake(world, "claude", []);
        const manifestPath = `${world.claudeRoot}/sessions/${run.child.pid}.json`;
        await waitUntil(() => pathExists(manifestPath));
        run.child.kill(signal);
        const result = await run.done;
        assert.equal(result.code, code, signal);
        assert.ok(!pathExists(manifestPath), signal);
      }
    } finally {
      world.cleanup();
    }
  },
});

Deno.test("fake claude: with requireTty and stdout not a terminal it falls into print mode, like the real CLI", async () => {
  const world = createFakeWorld();
  try {
    world.claudeScenario({ requireTty: true, messages: ["hi"] });
    const result = await runFake(world, "claude", ["--session-id", ID]);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /Input must be provided either through stdin or as a prompt argument/,
    );
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "fake claude: as root, the bypass flag is refused unless IS_SANDBOX=1",
  ignore: Deno.uid() !== 0,
  fn: async () => {
    const world = createFakeWorld();
    try {
      delete world.env.IS_SANDBOX;
      const result = await runFake(world, "claude", ["--dangerously-skip-permissions"]);
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr,
        "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n",
      );
    } finally {
      world.cleanup();
    }
  },
});
