import assert from "node:assert/strict";
import { join } from "node:path";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { sessionId, writeTranscript } from "./helpers/claude_home.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import {
  createLocateCache,
  locateTranscript,
  transcriptInOwnFolder,
} from "../lib/core/transcript_location.ts";
import { getSessionInfo } from "../lib/core/session_info.ts";

const GUID = sessionId(0x7e);

/**
 * Make a project folder that cannot be read. A symlink to itself fails every
 * stat and listing with ELOOP, as root too (CI runs as root, where chmod 000
 * stops nothing); a permission error goes down the same "not not-found" path.
 */
function makeUnreadable(folder: string): void {
  Deno.mkdirSync(join(folder, ".."), { recursive: true });
  Deno.symlinkSync(folder, folder);
}

Deno.test("locate: own folder, another project folder, nowhere", () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.cwd();
    const session = { guid: GUID, dir };
    assert.equal(locateTranscript(t.ctx.paths, session).status, "missing");
    const elsewhere = writeTranscript(t.ctx.paths, `${t.home}/origin`, GUID);
    const found = locateTranscript(t.ctx.paths, session);
    assert.deepEqual([found.status, found.path], ["found", elsewhere]);
    const own = writeTranscript(t.ctx.paths, dir, GUID);
    const first = locateTranscript(t.ctx.paths, session);
    assert.deepEqual([first.status, first.path], ["found", own]);
  } finally {
    t.cleanup();
  }
});

Deno.test({
  name: "a folder or a link to nothing where the transcript belongs is not 'missing'",
  ignore: Deno.build.os === "windows", // A link to nothing needs a symlink.
  fn: () => {
    const t = createTestContext();
    try {
      const session = { guid: GUID, dir: t.ctx.cwd() };
      const folder = projectDirFor(t.ctx.paths, session.dir);
      const transcript = join(folder, `${GUID}.jsonl`);
      Deno.mkdirSync(transcript, { recursive: true });
      const asFolder = locateTranscript(t.ctx.paths, session);
      assert.equal(asFolder.status, "unreadable");
      assert.match((asFolder as { error: string }).error, /a folder stands where/);
      Deno.removeSync(transcript);
      Deno.symlinkSync(join(folder, "nowhere.jsonl"), transcript);
      const asLink = locateTranscript(t.ctx.paths, session);
      assert.equal(asLink.status, "unreadable");
      assert.match((asLink as { error: string }).error, /a symbolic link to nothing/);
    } finally {
      t.cleanup();
    }
  },
});

Deno.test("copies in several other folders: the one with the most content, not the first listed", () => {
  const t = createTestContext();
  try {
    const session = { guid: GUID, dir: t.ctx.cwd() };
    const older = writeTranscript(t.ctx.paths, `${t.home}/a-first`, GUID);
    const newer = writeTranscript(t.ctx.paths, `${t.home}/z-last`, GUID);
    Deno.writeTextFileSync(newer, '{"type":"user","more":1}\n', { append: true });
    const found = locateTranscript(t.ctx.paths, session);
    assert.deepEqual([found.status, found.path], ["found", newer]);
    assert.notEqual(found.path, older);
  } finally {
    t.cleanup();
  }
});

Deno.test("in its own folder: only a transcript surely not there is out of it", () => {
  const t = createTestContext();
  try {
    const session = { guid: GUID, dir: t.ctx.cwd() };
    assert.equal(transcriptInOwnFolder(t.ctx.paths, session), false);
    writeTranscript(t.ctx.paths, `${t.home}/origin`, GUID);
    assert.equal(transcriptInOwnFolder(t.ctx.paths, session), false, "elsewhere is not its own");
    writeTranscript(t.ctx.paths, session.dir, GUID);
    assert.equal(transcriptInOwnFolder(t.ctx.paths, session), true);
    if (Deno.build.os !== "windows") {
      const other = { guid: GUID, dir: `${t.home}/unreadable` };
      makeUnreadable(projectDirFor(t.ctx.paths, other.dir));
      assert.equal(transcriptInOwnFolder(t.ctx.paths, other), true, "not knowing is not 'moved'");
    }
  } finally {
    t.cleanup();
  }
});

Deno.test({
  name: "an unreadable folder is never 'missing': locate, list --json, doctor and resume agree",
  ignore: Deno.build.os === "windows", // symlinks need privileges there
  fn: async () => {
    const world = createLaunchWorld();
    try {
      Deno.writeTextFileSync(world.paths.registryFile, `${GUID}|${world.project}|Locked one|\n`);
      makeUnreadable(projectDirFor(world.paths, world.project));
      const located = locateTranscript(world.paths, { guid: GUID, dir: world.project });
      assert.equal(located.status, "unreadable");

      const list = JSON.parse((await world.run(["list", "--json"])).stdout);
      assert.equal(list.sessions[0].status, "unreadable");
      assert.match(list.sessions[0].problem, /symbolic links/);

      const doctor = JSON.parse((await world.run(["doctor", "--json"])).stdout);
      assert.deepEqual(doctor.registry.missingTranscripts, []);
      assert.deepEqual(doctor.registry.unreadableTranscripts.map((m: { guid: string }) => m.guid), [
        GUID,
      ]);

      world.claudeScenario({ exitCode: 1 });
      const resumed = await world.run(["1"], { stdin: "\n" });
      assert.equal(resumed.code, 1);
      assert.doesNotMatch(resumed.stderr, /Delete this entry/);
      assert.match(
        resumed.stderr,
        /Could not look for its transcript .*entry has NOT been deleted/,
      );
      assert.deepEqual(world.sessions().map((s) => s.guid), [GUID]);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test("locate stats the expected place first and lists folders only when it is not there", () => {
  const t = createTestContext();
  const realReadDir = Deno.readDirSync;
  const listed: string[] = [];
  try {
    const session = { guid: GUID, dir: t.ctx.cwd() };
    writeTranscript(t.ctx.paths, session.dir, GUID);
    Deno.readDirSync = (path: string | URL) => {
      listed.push(String(path));
      return realReadDir(path);
    };
    assert.equal(locateTranscript(t.ctx.paths, session).status, "found");
    assert.equal(listed.length, 0, "a transcript where it belongs costs one stat");
    const other = { guid: sessionId(0x7f), dir: t.ctx.cwd() };
    assert.equal(locateTranscript(t.ctx.paths, other).status, "missing");
    assert.ok(listed.includes(t.ctx.paths.projectsDir), "a missing one is looked for everywhere");
  } finally {
    Deno.readDirSync = realReadDir;
    t.cleanup();
  }
});

Deno.test("once a run has listed a folder, a transcript not in the listing costs no failed stat", () => {
  const t = createTestContext();
  const realStat = Deno.statSync;
  const statted: string[] = [];
  try {
    const dir = t.ctx.cwd();
    writeTranscript(t.ctx.paths, dir, GUID);
    const elsewhere = writeTranscript(t.ctx.paths, `${t.home}/origin`, sessionId(0x80));
    const cache = createLocateCache();
    Deno.statSync = (path: string | URL) => {
      statted.push(String(path));
      return realStat(path);
    };
    const first = { guid: sessionId(0x7f), dir };
    assert.equal(locateTranscript(t.ctx.paths, first, cache).status, "missing");
    statted.length = 0;
    // Every folder is listed now: the answers come from the listings and a stat of what is there.
    const second = { guid: sessionId(0x81), dir };
    assert.equal(locateTranscript(t.ctx.paths, second, cache).status, "missing");
    assert.deepEqual(statted, [], "a name the listing lacks is not stat-ed");
    const moved = locateTranscript(t.ctx.paths, { guid: sessionId(0x80), dir }, cache);
    assert.deepEqual([moved.status, moved.path], ["found", elsewhere]);
    assert.deepEqual(statted, [elsewhere], "only where the listing has it");
    const own = locateTranscript(t.ctx.paths, { guid: GUID, dir }, cache);
    assert.equal(own.status, "found");
    // A folder with no project folder at all: listed as absent once, then no stat either.
    const gone = { guid: sessionId(0x82), dir: `${t.home}/never-used`, desc: "Gone", tokens: "" };
    getSessionInfo(t.ctx.paths, gone, { now: new Date(), cache });
    statted.length = 0;
    const again = { guid: sessionId(0x83), dir: gone.dir };
    assert.equal(locateTranscript(t.ctx.paths, again, cache).status, "missing");
    assert.deepEqual(statted, [], "a folder known to be absent holds nothing");
  } finally {
    Deno.statSync = realStat;
    t.cleanup();
  }
});
