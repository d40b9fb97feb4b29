import assert from "node:assert/strict";
import { trimSession } from "../lib/app/trim/trim.ts";
import { InterruptedError, UserError } from "../lib/core/errors.ts";
import { dirname, join, sep } from "../lib/core/path.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { absentCmv, type CmvAvailable, type TrimOutcome } from "../lib/platform/cmv.ts";
import type { Tools } from "../lib/platform/tools.ts";
import { createOutput } from "../lib/ui/output.ts";
import { sessionId, writeRegistryText, writeTranscript } from "./helpers/claude_home.ts";
import { createFakeWorld, type FakeWorld } from "./helpers/fakes.ts";
import { createTestContext, type TestContext } from "./helpers/test_context.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { escapeRegExp } from "./helpers/portable.ts";
import { findSession } from "../lib/core/registry.ts";
import { readRegistry } from "../lib/store/registry_store.ts";

const ID = "4f6b8daa-7ea9-4b8d-9a6c-5d1e2f3a4b5c";
const NEW = "5a7c9ebb-8fba-4c9e-8b7d-6e2f3a4b5c6d";
const OTHER = sessionId(7);
const ARCHIVED = sessionId(8);

const RED = "\x1b[31m";
const GREEN = "\x1b[32m";
const DARK_GRAY = "\x1b[90m";

/** A registered session with a transcript, a subagent sidecar and (optionally) an index. */
interface Seeded {
  test: TestContext;
  dir: string;
  folder: string;
  registryText: string;
  out: () => string;
  err: () => string;
}

function seed(world: FakeWorld, options: { dir?: string; index?: boolean } = {}): Seeded {
  const dir = options.dir ?? world.project;
  Deno.mkdirSync(dir, { recursive: true });
  // A fixed clock at the real time: the temp-file rules compare it with real mtimes.
  const test = createTestContext({ env: world.env, cwd: world.project, now: new Date() });
  const paths = test.ctx.paths;
  const folder = projectDirFor(paths, dir);
  writeTranscript(paths, dir, ID, {
    lines: [{
      type: "user",
      uuid: "u-work",
      sessionId: ID,
      cwd: dir,
      message: { content: "work" },
    }],
  });
  Deno.mkdirSync(join(folder, ID, "subagents"), { recursive: true });
  Deno.writeTextFileSync(join(folder, ID, "subagents", "agent-a1.jsonl"), "{}\n");
  if (options.index) {
    const index = {
      version: 1,
      entries: [{ sessionId: ID, fullPath: join(folder, `${ID}.jsonl`) }],
    };
    Deno.writeTextFileSync(join(folder, "sessions-index.json"), JSON.stringify(index));
  }
  const registryText = `${OTHER}|${world.project}|Other work|7\n` +
    `${ID}|${dir}|My work|48213\n[archived]\n${ARCHIVED}|${world.project}|Old|\n`;
  writeRegistryText(paths, registryText);
  // Coloured output, so the tests see which lines are red, green or dark gray.
  let out = "";
  let err = "";
  test.ctx.out = createOutput((text) => out += text, { colour: true, terminal: true });
  test.ctx.err = createOutput((text) => err += text, { colour: true, terminal: true });
  return { test, dir, folder, registryText, out: () => out, err: () => err };
}

function registryText(seeded: Seeded): string {
  return Deno.readTextFileSync(seeded.test.ctx.paths.registryFile);
}

function assertNothingChanged(seeded: Seeded): void {
  assert.equal(registryText(seeded), seeded.registryText, "sessions.txt untouched");
  assert.ok(pathExists(join(seeded.folder, `${ID}.jsonl`)), "the pre-trim transcript stays");
  assert.ok(
    pathExists(join(seeded.folder, ID, "subagents", "agent-a1.jsonl")),
    "its sidecar stays",
  );
  assert.ok(!pathExists(seeded.test.ctx.paths.backupDir), "nothing moved to the backup dir");
}

/** cmv was only ever run as `trim -s <ID> --skip-launch` (spec 14 rules 1 and 4). */
function assertTrimArgv(world: FakeWorld, cwd: string): void {
  const runs = world.argv("cmv");
  assert.deepEqual(runs.map((run) => run.argv), [["trim", "-s", ID, "--skip-launch"]]);
  assert.ok(runs.every((run) => !run.argv.includes("--latest")));
  assert.equal(runs[0].cwd, cwd);
}

async function withWorld(body: (world: FakeWorld) => Promise<void>): Promise<void> {
  const world = createFakeWorld();
  try {
    await body(world);
  } finally {
    world.cleanup();
  }
}

Deno.test("trim: the row points at the new session with its name and tokens, the pre-trim files go to backup/<leaf>/", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world, { index: true });
    const { test, folder } = seeded;
    try {
      world.cmvScenario({ trimId: NEW });
      assert.equal(await trimSession(test.ctx, { guid: ID }), NEW);
      assert.equal(
        registryText(seeded),
        `${OTHER}|${world.project}|Other work|7\n${NEW}|${world.project}|My work|48213\n` +
          `[archived]\n${ARCHIVED}|${world.project}|Old|\n`,
      );
      assert.ok(pathExists(join(folder, `${NEW}.jsonl`)));
      const leaf = join(test.ctx.paths.backupDir, "project");
      assert.ok(pathExists(join(leaf, `${ID}.jsonl`)), "pre-trim transcript in backup/<leaf>/");
      assert.ok(pathExists(join(leaf, ID, "subagents", "agent-a1.jsonl")), "its sidecar too");
      assert.ok(!pathExists(join(folder, `${ID}.jsonl`)) && !pathExists(join(folder, ID)));
      assert.ok(!pathExists(test.ctx.paths.quarantineRoot), "never the quarantine root (spec 3.1)");
      const index = JSON.parse(Deno.readTextFileSync(join(folder, "sessions-index.json")));
      assert.deepEqual(index.entries.map((e: { sessionId: string }) => e.sessionId), [NEW]);
      assertTrimArgv(world, world.project);
      const out = seeded.out();
      assert.match(out, /^ {2}Trimming session\.\.\.$/m);
      assert.match(out, /^ {4}Reduction: +\d+%$/m, "cmv's own lines, indented");
      assert.doesNotMatch(out, /Session ID:/);
      assert.ok(out.endsWith(`${GREEN}  Session trimmed. New ID: ${NEW}\x1b[0m\n`));
      assert.equal(seeded.err(), "");
    } finally {
      test.cleanup();
    }
  });
});

Deno.test("trim: a DIR with spaces and unicode keys, runs and backs up under its own names", async () => {
  await withWorld(async (world) => {
    const dir = join(world.dir, "My Prøject – ünï");
    const seeded = seed(world, { dir });
    const { test, folder } = seeded;
    try {
      world.cmvScenario({ trimId: NEW });
      assert.equal(await trimSession(test.ctx, { guid: ID }), NEW);
      const row = new RegExp(`^${NEW}\\|${escapeRegExp(dir)}\\|My work\\|48213$`, "m");
      assert.match(registryText(seeded), row);
      assert.ok(pathExists(join(folder, `${NEW}.jsonl`)));
      assert.ok(pathExists(join(test.ctx.paths.backupDir, "My Prøject – ünï", `${ID}.jsonl`)));
      assertTrimArgv(world, dir);
    } finally {
      test.cleanup();
    }
  });
});

Deno.test("trim: without cmv it says so once and changes nothing", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    try {
      seeded.test.env.CLAUDECM_CMV = join(world.dir, "no-such-cmv");
      assert.equal(await trimSession(seeded.test.ctx, { guid: ID }), null);
      // One line: what was not done, and why.
      assert.match(
        seeded.err(),
        /^\S* {2}No trim: CLAUDECM_CMV is set to .*no-such-cmv.*skipping .*trim/m,
      );
      assert.equal(seeded.err().trim().split("\n").length, 1);
      assertNothingChanged(seeded);
      assert.deepEqual(world.argv("cmv"), []);
    } finally {
      seeded.test.cleanup();
    }
  });
});

Deno.test("trim: an unregistered session is not trimmed", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    try {
      assert.equal(await trimSession(seeded.test.ctx, { guid: NEW }), null);
      assert.ok(seeded.err().includes(`${RED}  Cannot trim ${NEW}: it is not in sessions.txt.`));
      assert.deepEqual(world.argv("cmv"), [], "cmv never runs on an unknown session");
      assertNothingChanged(seeded);
    } finally {
      seeded.test.cleanup();
    }
  });
});

Deno.test("trim: a session whose transcript is not in its DIR's project folder is not handed to cmv", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    const { test, folder } = seeded;
    try {
      const moved = join(test.ctx.paths.projectsDir, "-moved");
      Deno.mkdirSync(moved);
      Deno.renameSync(join(folder, `${ID}.jsonl`), join(moved, `${ID}.jsonl`));
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.ok(
        seeded.err().includes(
          `${RED}  Cannot trim ${ID}: its transcript is not at ${folder}${sep}`,
        ),
      );
      assert.deepEqual(world.argv("cmv"), [], "cmv would write its copy beside the stray file");
      assert.deepEqual([...Deno.readDirSync(moved)].map((e) => e.name), [`${ID}.jsonl`]);
      assert.equal(registryText(seeded), seeded.registryText);
    } finally {
      test.cleanup();
    }
  });
});

Deno.test({
  name: "trim: an unreadable transcript is reported as unreadable, not as absent",
  ignore: Deno.build.os === "windows", // symlinks need privileges there
  fn: async () => {
    await withWorld(async (world) => {
      const seeded = seed(world);
      const { test, folder } = seeded;
      try {
        // A transcript that is a symlink to itself fails every stat with ELOOP, as root too.
        Deno.removeSync(join(folder, `${ID}.jsonl`));
        Deno.symlinkSync(join(folder, `${ID}.jsonl`), join(folder, `${ID}.jsonl`));
        assert.equal(await trimSession(test.ctx, { guid: ID }), null);
        assert.match(seeded.err(), new RegExp(`Cannot trim ${ID}: its transcript cannot be read`));
        assert.deepEqual(world.argv("cmv"), []);
        assert.equal(registryText(seeded), seeded.registryText);
      } finally {
        test.cleanup();
      }
    });
  },
});

Deno.test("trim: no Session ID in cmv's output is a failure with its first lines shown", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    try {
      world.cmvScenario({ failCommand: "trim" });
      assert.equal(await trimSession(seeded.test.ctx, { guid: ID }), null);
      const err = seeded.err();
      assert.ok(err.includes(`${RED}  Trim failed or no new session ID found.\x1b[0m\n`));
      assert.match(err, /^ {2}✗ trim failed$/m, "cmv's own error, from stderr");
      assert.doesNotMatch(seeded.out(), /Session trimmed/);
      assertNothingChanged(seeded);
      assertTrimArgv(world, world.project);
    } finally {
      seeded.test.cleanup();
    }
  });
});

Deno.test("trim: a new file in another project folder fails loudly, nothing copied, registry untouched", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    const { test, folder } = seeded;
    try {
      world.cmvScenario({ trimId: NEW, trimIntoProject: "-elsewhere" });
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      const actual = join(test.ctx.paths.projectsDir, "-elsewhere", `${NEW}.jsonl`);
      const err = seeded.err();
      assert.ok(err.includes(`${RED}  CMV WROTE THE TRIMMED SESSION TO THE WRONG PROJECT.`));
      assert.ok(err.includes(`${RED}  Expected: ${join(folder, `${NEW}.jsonl`)}\x1b[0m`));
      assert.ok(err.includes(`${RED}  Actual:   ${actual}\x1b[0m`));
      assert.match(err, /nothing was copied\. Investigate before resuming\./);
      assert.ok(!pathExists(join(folder, `${NEW}.jsonl`)), "not copied into the session's folder");
      assert.ok(pathExists(actual), "and not moved either: the user investigates");
      assertNothingChanged(seeded);
      assert.doesNotMatch(seeded.out(), /Session trimmed/);
    } finally {
      test.cleanup();
    }
  });
});

Deno.test("trim: stale cmv temp files go before the trim, the one it leaves behind after", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    const { test, folder } = seeded;
    try {
      const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
      const touch = (path: string, mtime: Date) => {
        Deno.mkdirSync(dirname(path), { recursive: true });
        Deno.writeTextFileSync(path, "partial");
        Deno.utimeSync(path, mtime, mtime);
      };
      const stale = join(folder, `${OTHER}.jsonl.cmv-trim-tmp`);
      const recent = join(folder, `${ARCHIVED}.jsonl.cmv-trim-tmp`);
      const elsewhere = join(test.ctx.paths.projectsDir, "-other", `${OTHER}.jsonl.cmv-trim-tmp`);
      touch(stale, minutesAgo(10));
      touch(recent, minutesAgo(2));
      touch(elsewhere, minutesAgo(60));
      world.cmvScenario({ trimId: NEW, trimLeavesTemp: true });
      assert.equal(await trimSession(test.ctx, { guid: ID }), NEW);
      assert.ok(!pathExists(stale), "older than 5 minutes: removed before the trim");
      assert.ok(
        !pathExists(join(folder, `${NEW}.jsonl.cmv-trim-tmp`)),
        "left by this trim: removed",
      );
      assert.ok(pathExists(recent), "neither stale nor from this trim: kept");
      assert.ok(pathExists(elsewhere), "other project folders are not ours to clean");
      const out = seeded.out();
      const cleaned = out.indexOf(
        `${DARK_GRAY}  Cleaned stale CMV temp file: ${OTHER}.jsonl.cmv-trim-tmp\x1b[0m`,
      );
      const trimming = out.indexOf("  Trimming session...");
      const leftBehind = out.indexOf(
        `${DARK_GRAY}  CMV left a temp file behind: ${NEW}.jsonl.cmv-trim-tmp; removing.\x1b[0m`,
      );
      assert.ok(cleaned >= 0 && trimming > cleaned && leftBehind > trimming, out);
    } finally {
      test.cleanup();
    }
  });
});

/** Tools whose cmv trims with `trim` instead of running anything. */
function stubCmv(trim: CmvAvailable["trim"]): Tools {
  const cmv: CmvAvailable = {
    available: true,
    path: "/stub/cmv",
    benchmark: () => Promise.reject(new Error("not used")),
    version: () => Promise.reject(new Error("not used")),
    snapshot: () => {
      throw new Error("not used");
    },
    trim,
  };
  return {
    claude: () => assert.fail("claude is not used"),
    cmv: () => Promise.resolve(cmv),
    edit: () => assert.fail("the editor is not used"),
  };
}

function outcome(newSessionId: string | null, run: Partial<TrimOutcome["run"]> = {}): TrimOutcome {
  return {
    newSessionId,
    namedIds: newSessionId === null ? [] : [newSessionId],
    lines: [],
    run: { code: 0, stdout: "", stderr: "", timedOut: false, ...run },
  };
}

Deno.test("trim: cmv that names a session it never wrote, hangs, or cannot start changes nothing and throws nothing", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    const { test } = seeded;
    try {
      test.ctx.tools = stubCmv(() => Promise.resolve(outcome(NEW)));
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.ok(seeded.err().includes(`${RED}  cmv reported session ${NEW} but its transcript`));
      assertNothingChanged(seeded);

      test.ctx.tools = stubCmv(() => Promise.resolve(outcome(null, { code: 143, timedOut: true })));
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.match(seeded.err(), /cmv trim was stopped after 10 minutes/);
      assertNothingChanged(seeded);

      test.ctx.tools = stubCmv(() => Promise.resolve(outcome(ID)));
      assert.equal(await trimSession(test.ctx, { guid: ID }), null, "the same id is no trim");
      assertNothingChanged(seeded);

      // Another row's session, whose transcript was there before: never the trimmed copy.
      test.ctx.tools = stubCmv(() => Promise.resolve(outcome(OTHER)));
      assert.equal(await trimSession(test.ctx, { guid: ID }), null, "another session is no trim");
      assert.match(seeded.err(), new RegExp(`cmv named session ${OTHER}, which was there before`));
      assertNothingChanged(seeded);

      test.ctx.tools = stubCmv(() => Promise.reject(new UserError("cannot run /stub/cmv: gone")));
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.match(seeded.err(), /^ {2}cannot run \/stub\/cmv: gone$/m);
      assertNothingChanged(seeded);

      test.ctx.tools = {
        claude: () => assert.fail("unused"),
        cmv: () => Promise.resolve(absentCmv("no cmv")),
        edit: () => assert.fail("unused"),
      };
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.match(seeded.err(), /^\S* {2}No trim: no cmv/m);
    } finally {
      test.cleanup();
    }
  });
});

Deno.test("trim: Ctrl-C while cmv runs sets its unfinished copy aside in the backup dir", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    const { test } = seeded;
    try {
      const copy = join(seeded.folder, `${NEW}.jsonl`);
      // cmv's copy carries the session's messages (their uuids) under the new id.
      const trimmedCopy = Deno.readTextFileSync(join(seeded.folder, `${ID}.jsonl`));
      test.ctx.tools = stubCmv(() => {
        Deno.writeTextFileSync(copy, trimmedCopy);
        return Promise.reject(new InterruptedError());
      });
      await assert.rejects(() => trimSession(test.ctx, { guid: ID }), InterruptedError);
      assert.ok(!pathExists(copy), "not left where claude --continue would take it");
      assert.ok(pathExists(join(test.ctx.paths.backupDir, "project", `${NEW}.jsonl`)));
      assert.ok(findSession(readRegistry(test.ctx.paths), ID), "the row is unchanged");
      // The same when cmv dies or is stopped at the time limit, with no session id said; and
      // another window's new session that appeared meanwhile is left alone.
      const other = join(seeded.folder, `${sessionId(0x42)}.jsonl`);
      test.ctx.tools = stubCmv(() => {
        Deno.writeTextFileSync(copy, trimmedCopy);
        Deno.writeTextFileSync(other, '{"type":"user","uuid":"u-other","message":{}}\n');
        return Promise.resolve(outcome(null, { code: 143, timedOut: true }));
      });
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.ok(!pathExists(copy));
      assert.ok(pathExists(other), "not cmv's");
    } finally {
      test.cleanup();
    }
  });
});

Deno.test("trim: a copy cmv did not finish is never taken: a failed or stopped run, an empty or cut copy", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    const { test } = seeded;
    try {
      const copy = join(seeded.folder, `${NEW}.jsonl`);
      const whole = Deno.readTextFileSync(join(seeded.folder, `${ID}.jsonl`));
      const cases: Array<[string, string, Partial<TrimOutcome["run"]>, RegExp]> = [
        ["cmv failed after naming it", whole, { code: 3 }, /cmv trim ended with exit code 3/],
        ["cmv was stopped", whole, { code: 143, timedOut: true }, /stopped after 10 minutes/],
        ["an empty copy", "", {}, /is empty or cut short: it is not taken/],
        ["a copy cut mid-line", whole.slice(0, whole.length - 5), {}, /is empty or cut short/],
      ];
      for (const [label, text, run, said] of cases) {
        test.ctx.tools = stubCmv(() => {
          Deno.writeTextFileSync(copy, text);
          return Promise.resolve(outcome(NEW, run));
        });
        assert.equal(await trimSession(test.ctx, { guid: ID }), null, label);
        assert.match(seeded.err(), said, label);
        assert.ok(findSession(readRegistry(test.ctx.paths), ID), `${label}: the row stays`);
        assert.ok(pathExists(join(seeded.folder, `${ID}.jsonl`)), `${label}: the transcript stays`);
        assert.ok(!pathExists(copy), `${label}: the copy is set aside`);
      }
      // Two ids: neither is the trim; the whole copy and the empty one both go aside.
      const second = join(seeded.folder, `${sessionId(0x43)}.jsonl`);
      test.ctx.tools = stubCmv(() => {
        Deno.writeTextFileSync(copy, whole);
        Deno.writeTextFileSync(second, "");
        return Promise.resolve({ ...outcome(null), namedIds: [NEW, sessionId(0x43)] });
      });
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.ok(!pathExists(copy) && !pathExists(second), "both of cmv's copies set aside");
      // A whole session of other history that cmv names is another window's: left alone.
      const foreign =
        '{"type":"user","uuid":"u-foreign","message":{"role":"user","content":"hi"}}\n';
      test.ctx.tools = stubCmv(() => {
        Deno.writeTextFileSync(copy, foreign);
        return Promise.resolve(outcome(NEW, { code: 1 }));
      });
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.equal(Deno.readTextFileSync(copy), foreign, "not cmv's to move");
      Deno.removeSync(copy);
      // What cmv names may be no file at all: a folder, or a pipe nothing writes to (opening it
      // would block claudecm for good). Never read, never moved, no throw.
      Deno.mkdirSync(copy);
      test.ctx.tools = stubCmv(() => Promise.resolve(outcome(NEW, { code: 1 })));
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.ok(Deno.statSync(copy).isDirectory);
      Deno.removeSync(copy);
      if (Deno.build.os !== "windows") {
        test.ctx.tools = stubCmv(() => {
          new Deno.Command("mkfifo", { args: [copy] }).outputSync();
          return Promise.resolve(outcome(NEW));
        });
        assert.equal(await trimSession(test.ctx, { guid: ID }), null);
        assert.ok(!Deno.statSync(copy).isFile, "the pipe is left where it is");
      }
    } finally {
      test.cleanup();
    }
  });
});

/** cmv that, once its trim is done, lets "another window" act before claudecm goes on. */
function cmvThen(test: TestContext, otherWindow: () => void): void {
  const tools = test.ctx.tools;
  test.ctx.tools = {
    ...tools,
    cmv: async () => {
      const cmv = await tools.cmv();
      if (!cmv.available) return cmv;
      return {
        ...cmv,
        trim: async (id, options) => {
          const outcome = await cmv.trim(id, options);
          otherWindow();
          return outcome;
        },
      };
    },
  };
}

Deno.test("trim: a transcript appended in another window during the trim keeps its row, and stays", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    const { test, folder } = seeded;
    try {
      world.cmvScenario({ trimId: NEW });
      const pretrim = `${folder}/${ID}.jsonl`;
      cmvThen(test, () => Deno.writeTextFileSync(pretrim, '{"type":"user"}\n', { append: true }));
      // The trimmed copy lacks the appended line: the row must not move to it.
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.ok(findSession(readRegistry(test.ctx.paths), ID), "the row still names it");
      assert.ok(pathExists(pretrim), "the changed transcript is not moved");
      assert.ok(!pathExists(`${test.ctx.paths.backupDir}/project/${ID}.jsonl`));
      assert.match(
        seeded.err(),
        /changed while cmv was trimming it \(.*changed since it was shown.*\); the list keeps it/,
      );
    } finally {
      test.cleanup();
    }
  });
});

Deno.test("trim: a session opened in a claude window during the trim keeps its row, and stays", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    const { test, folder } = seeded;
    try {
      world.cmvScenario({ trimId: NEW });
      const { sessionsDir } = test.ctx.paths;
      cmvThen(test, () => {
        Deno.mkdirSync(sessionsDir, { recursive: true });
        const manifest = { pid: Deno.pid, sessionId: ID, cwd: world.project };
        Deno.writeTextFileSync(`${sessionsDir}/${Deno.pid}.json`, JSON.stringify(manifest));
      });
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.ok(findSession(readRegistry(test.ctx.paths), ID), "the row still names it");
      assert.ok(pathExists(`${folder}/${ID}.jsonl`));
      assert.match(seeded.err(), /changed while cmv was trimming it \(.*open in a claude window/);
    } finally {
      test.cleanup();
    }
  });
});

Deno.test("trim: a session open in a claude window when the trim starts is not trimmed at all", async () => {
  await withWorld(async (world) => {
    const seeded = seed(world);
    const { test } = seeded;
    try {
      world.cmvScenario({ trimId: NEW });
      const { sessionsDir } = test.ctx.paths;
      Deno.mkdirSync(sessionsDir, { recursive: true });
      const manifest = { pid: Deno.pid, sessionId: ID, cwd: world.project };
      Deno.writeTextFileSync(`${sessionsDir}/${Deno.pid}.json`, JSON.stringify(manifest));
      assert.equal(await trimSession(test.ctx, { guid: ID }), null);
      assert.match(seeded.err(), /Not trimmed: .* is open in another claude window now/);
      assert.deepEqual(world.argv("cmv").filter((e) => e.argv[0] === "trim"), [], "cmv never ran");
    } finally {
      test.cleanup();
    }
  });
});
