// The fake claude's resume, fork and /exit-tail behaviour, and the shape of its
// lines compared with transcripts the real CLI wrote (fixtures/transcripts/real-claude/).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { projectKey } from "../lib/core/project_key.ts";
import {
  assertChained,
  createFakeWorld,
  type FakeWorld,
  readLines,
  runFake,
  transcripts,
} from "./helpers/fakes.ts";

const ID = "6a1d9a55-2f54-4c3e-8b1d-0e6f7a8b9c0d";
const FORK = "7b2e0b66-3a65-4d4f-9c2e-1f7a8b9c0d1e";

function fileOf(world: FakeWorld, id: string, dir = world.project): string {
  return `${world.claudeRoot}/projects/${projectKey(dir)}/${id}.jsonl`;
}

async function seed(world: FakeWorld): Promise<void> {
  world.claudeScenario({ messages: ["first"] });
  assert.equal((await runFake(world, "claude", ["--session-id", ID, "-n", "seed"])).code, 0);
}

Deno.test("fake claude: --resume appends to the same transcript and continues its chain", async () => {
  const world = createFakeWorld();
  try {
    await seed(world);
    const before = readLines(fileOf(world, ID)).length;
    world.claudeScenario({ messages: ["second"] });
    const result = await runFake(world, "claude", ["--resume", ID]);
    assert.equal(result.code, 0);
    const lines = readLines(fileOf(world, ID));
    assert.ok(lines.length > before);
    assertChained(lines);
    assert.deepEqual(Object.values(transcripts(world)), [[`${ID}.jsonl`]]);
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: --resume finds a session of another project dir, and says so when there is none", async () => {
  const world = createFakeWorld();
  try {
    await seed(world);
    const other = `${world.dir}/other`;
    Deno.mkdirSync(other);
    world.claudeScenario({ messages: ["from elsewhere"] });
    assert.equal((await runFake(world, "claude", ["--resume", ID], { cwd: other })).code, 0);
    const users = readLines(fileOf(world, ID)).filter((line) => line.type === "user");
    assert.equal(users.length, 2, "appended to the original file");
    const missing = await runFake(world, "claude", ["--resume", FORK]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, `No conversation found with session ID: ${FORK}\n`);
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: a fork (scenario or --fork-session) copies the history into a new id", async () => {
  const world = createFakeWorld();
  try {
    await seed(world);
    const original = Deno.readTextFileSync(fileOf(world, ID));
    world.claudeScenario({ fork: true, forkId: FORK, messages: ["after the fork"] });
    const result = await runFake(world, "claude", ["--resume", ID]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, new RegExp(`claude --resume ${FORK}`));
    assert.equal(
      Deno.readTextFileSync(fileOf(world, ID)),
      original,
      "the predecessor is untouched",
    );
    const forked = readLines(fileOf(world, FORK));
    assert.ok(forked.every((line) => line.sessionId === undefined || line.sessionId === FORK));
    const users = forked.filter((line) => line.type === "user").map((line) =>
      (line.message as { content: string }).content
    );
    assert.deepEqual(users, ["first", "after the fork"]);
    assertChained(forked);

    world.claudeScenario({ messages: ["flag fork"] });
    const third = crypto.randomUUID();
    const flagged = await runFake(world, "claude", [
      "--resume",
      ID,
      "--fork-session",
      "--session-id",
      third,
    ]);
    assert.equal(flagged.code, 0);
    assert.ok(readLines(fileOf(world, third)).length > 0);
    const noFork = await runFake(world, "claude", [
      "--resume",
      ID,
      "--session-id",
      crypto.randomUUID(),
    ]);
    assert.equal(
      noFork.stderr,
      "Error: --session-id with --continue or --resume also needs --fork-session.\n",
    );
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: the /exit tail (older claude) makes a prompt-less resume refuse; a prompt gets through", async () => {
  const world = createFakeWorld();
  try {
    world.claudeScenario({ messages: ["work"], exitTail: true });
    assert.equal((await runFake(world, "claude", ["--session-id", ID])).code, 0);
    const tail = readLines(fileOf(world, ID)).slice(-10).map((line) => JSON.stringify(line)).join(
      "\n",
    );
    assert.match(tail, /\/exit<\/command-name>/);
    world.claudeScenario({ refuseExitTail: true });
    const refused = await runFake(world, "claude", ["--resume", ID]);
    assert.equal(refused.code, 1);
    world.claudeScenario({ refuseExitTail: true });
    const retried = await runFake(world, "claude", ["--resume", ID, "please continue"]);
    assert.equal(retried.code, 0);
    const last = readLines(fileOf(world, ID)).filter((line) => line.type === "user").at(-1)!;
    assert.equal((last.message as { content: string }).content, "please continue");
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: invocations script several runs from one scenario file", async () => {
  const world = createFakeWorld();
  try {
    world.claudeScenario({ exitCode: 0, invocations: [{ exitCode: 1 }, {}, { exitCode: 130 }] });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await runFake(world, "claude", [])).code);
    assert.deepEqual(codes, [1, 0, 130, 0]);
  } finally {
    world.cleanup();
  }
});

Deno.test("fake claude: its lines have the real CLI's shape (no key the real line of that type lacks)", async () => {
  const world = createFakeWorld();
  try {
    world.claudeScenario({ messages: ["hello world"] });
    await runFake(world, "claude", ["--session-id", ID, "-n", "probe-name"]);
    world.claudeScenario({});
    const print = JSON.parse(
      (await runFake(world, "claude", ["-p", "--output-format", "json"], { stdin: "hi\n" })).stdout,
    );
    const real = [
      ...readLines(
        fileURLToPath(
          new URL(
            "../fixtures/transcripts/real-claude/2.1.332-interactive-named.jsonl",
            import.meta.url,
          ),
        ),
      ),
      ...readLines(
        fileURLToPath(
          new URL("../fixtures/transcripts/real-claude/2.1.332-print.jsonl", import.meta.url),
        ),
      ),
      ...readLines(
        fileURLToPath(new URL("../fixtures/transcripts/example-session.jsonl", import.meta.url)),
      ),
    ];
    const fake = [...readLines(fileOf(world, ID)), ...readLines(fileOf(world, print.session_id))];
    for (const line of fake) {
      const kind = `${line.type}/${line.subtype ?? ""}`;
      const sameKind = real.filter((r) => `${r.type}/${r.subtype ?? ""}` === kind);
      assert.ok(sameKind.length > 0, `the real CLI writes no ${kind} line`);
      const realKeys = new Set(sameKind.flatMap((r) => Object.keys(r)));
      const extra = Object.keys(line).filter((key) => !realKeys.has(key));
      assert.deepEqual(extra, [], `${kind} keys the real CLI does not write`);
    }
  } finally {
    world.cleanup();
  }
});
