// Issue 18 item 3: `-n` only ever carries the name of the session being launched. Claude
// writes it into that transcript as its custom title for good.
import assert from "node:assert/strict";
import { join } from "node:path";
import { inWorldWithoutCmv, type LaunchWorld } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";

const ORPHAN = "0e0e0e0e-0000-4000-8000-00000000beef";

/** The `-n` value of a launch; undefined when none was passed. */
function nameOf(argv: string[]): string | undefined {
  const at = argv.indexOf("-n");
  return at < 0 ? undefined : argv[at + 1];
}

/** A registered session and, newer beside it, an unregistered transcript with these titles. */
function withTitledOrphan(world: LaunchWorld, titles: { custom?: string[]; ai?: string }) {
  const { main } = seedSessions(world, [{ desc: "Registered work" }]);
  const folder = projectDirFor(world.paths, world.project);
  const old = new Date(2026, 0, 1);
  Deno.utimeSync(join(folder, `${main[0].guid}.jsonl`), old, old);
  const builder = finishedSession({
    sessionId: ORPHAN,
    cwd: world.project,
    ask: "Fix the flaky upload test",
    title: titles.ai,
  });
  for (const customTitle of titles.custom ?? []) builder.metadata({ customTitle });
  save(folder, builder);
  return main[0];
}

Deno.test("an orphan picked in the scan is named by its own last custom title, else its ai title", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    withTitledOrphan(world, { custom: ["desk - Old name", "desk - Upload work"], ai: "Ai named" });
    // `claudecm 1` (resume N), then 1 in the scan.
    assert.equal((await world.run(["1"], { stdin: "1\nskip\n" })).code, 0);
    assert.equal(nameOf(world.launches()[0].argv), "desk - Upload work");
  });
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    withTitledOrphan(world, { ai: "Flaky upload" });
    // `claudecm new` in the registered folder, then 1 in the scan.
    assert.equal((await world.run(["new"], { stdin: "1\nskip\n" })).code, 0);
    const [launch] = world.launches();
    assert.deepEqual(launch.argv.slice(1, 3), ["--resume", ORPHAN]);
    assert.equal(nameOf(launch.argv), "desk - Flaky upload");
  });
});

Deno.test("declining 'Resume this session?' starts a new session under a new name, never the old one", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["hello"] });
    const [old] = seedSessions(world, [{ desc: "Registered work" }]).main;
    const result = await world.run(["new"], { stdin: "n\nSomething else\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Create a name for this session/);
    const [launch] = world.launches();
    assert.ok(launch.argv.includes("--session-id"), launch.argv.join(" "));
    assert.equal(nameOf(launch.argv), "desk - Something else");
    assert.deepEqual(world.sessions().map((s) => s.desc), ["Something else", old.desc]);
  });
  await inWorldWithoutCmv(async (world) => {
    // Enter at the name: the folder's default name, which is what the new row is called.
    world.claudeScenario({ messages: ["hello"] });
    seedSessions(world, [{ desc: "Registered work" }]);
    assert.equal((await world.run(["new"], { stdin: "n\n\n" })).code, 0);
    assert.equal(nameOf(world.launches()[0].argv), "desk - Project");
  });
});

Deno.test("a new session with arguments for claude is named as its row, not as the folder's saved session", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["hello"] });
    seedSessions(world, [{ desc: "Registered work" }]);
    assert.equal((await world.run(["--model", "opus"])).code, 0);
    assert.equal(nameOf(world.launches()[0].argv), "desk - Project");
    // `--continue` picks a session claudecm does not know yet: no name goes with it.
    assert.equal((await world.run(["--continue"])).code, 0);
    assert.equal(nameOf(world.launches()[1].argv), undefined);
  });
});

Deno.test("-r ID of a session the list lacks: named by its own title, or not at all", async () => {
  await inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["carry on"] });
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    save(
      folder,
      finishedSession({ sessionId: ORPHAN, cwd: world.project, title: "Its own title" }),
    );
    assert.equal((await world.run(["-r", ORPHAN], { stdin: "skip\n" })).code, 0);
    assert.equal(nameOf(world.launches()[0].argv), "desk - Its own title");
    const untitled = "0e0e0e0e-0000-4000-8000-00000000cafe";
    save(
      folder,
      // A message claude can resume (2.1.332 refuses a transcript of metadata alone), no title.
      new TranscriptBuilder({ sessionId: untitled, cwd: world.project }).text("Working on it.")
        .metadata({ mode: "normal" }),
    );
    assert.equal((await world.run(["-r", untitled], { stdin: "skip\n" })).code, 0);
    assert.equal(nameOf(world.launches()[1].argv), undefined);
  });
});
