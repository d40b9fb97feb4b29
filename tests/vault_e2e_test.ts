// The vault end to end (issue 20): Claude Code's clean-up deletes every transcript
// older than N days by mtime; `resume N` + Enter restores and resumes, `restore` brings
// the others back byte for byte with their sidecars, in link mode and in copy mode.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { vaultFilesFor } from "../lib/core/session_copies.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { escapeRegExp, symlinkIfSupported } from "./helpers/portable.ts";

const A = sessionId(0x11);
const B = sessionId(0x22);
const C = sessionId(0x33);
const DAY = 24 * 60 * 60 * 1000;

/** Three registered sessions; B has subagent and tool-result files. */
function seed(world: LaunchWorld): string {
  const folder = projectDirFor(world.paths, world.project);
  Deno.mkdirSync(folder, { recursive: true });
  for (const id of [A, B, C]) save(folder, finishedSession({ sessionId: id, cwd: world.project }));
  Deno.mkdirSync(join(folder, B, "subagents"), { recursive: true });
  Deno.mkdirSync(join(folder, B, "tool-results"), { recursive: true });
  Deno.writeTextFileSync(join(folder, B, "subagents", "agent-1.jsonl"), '{"agent":1}\n');
  Deno.writeTextFileSync(join(folder, B, "tool-results", "out.txt"), "tool output\n");
  Deno.writeTextFileSync(
    world.paths.registryFile,
    `${A}|${world.project}|Alpha work|\n${B}|${world.project}|Beta work|\n` +
      `${C}|${world.project}|Gamma work|\n`,
  );
  world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
  return folder;
}

/** B's row now names another folder, `<world>/moved here` (made), as if it had moved since. */
function moveRowOfB(world: LaunchWorld): string {
  const moved = join(world.dir, "moved here");
  Deno.mkdirSync(moved);
  const rows = Deno.readTextFileSync(world.paths.registryFile);
  Deno.writeTextFileSync(
    world.paths.registryFile,
    rows.replace(`${B}|${world.project}|`, `${B}|${moved}|`),
  );
  return moved;
}

/** Every file under `dir` (relative path → bytes). */
function tree(dir: string, prefix = ""): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  if (!pathExists(dir)) return files;
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      for (const [k, v] of tree(path, `${prefix}${entry.name}/`)) files.set(k, v);
    } else files.set(`${prefix}${entry.name}`, Deno.readFileSync(path));
  }
  return files;
}

/** Claude Code's clean-up: transcripts (and their sidecars) older than `days` by mtime go. */
function claudeCleanup(folder: string, days: number, now = Date.now()): string[] {
  const deleted: string[] = [];
  for (const entry of [...Deno.readDirSync(folder)]) {
    if (!entry.name.endsWith(".jsonl")) continue;
    const path = join(folder, entry.name);
    if (Deno.statSync(path).mtime!.getTime() >= now - days * DAY) continue;
    Deno.removeSync(path);
    const sidecar = path.slice(0, -".jsonl".length);
    if (pathExists(sidecar)) Deno.removeSync(sidecar, { recursive: true });
    deleted.push(entry.name);
  }
  return deleted;
}

function age(folder: string, id: string, days: number): void {
  const when = new Date(Date.now() - days * DAY);
  Deno.utimeSync(join(folder, `${id}.jsonl`), when, when);
}

async function cleanupPlay(copyMode: boolean): Promise<void> {
  const world = createLaunchWorld();
  try {
    if (copyMode) world.env.CLAUDECM_VAULT = "copy";
    const folder = seed(world);
    const synced = await world.run(["vault", "sync"]);
    assert.equal(synced.code, 0, synced.stderr);
    // Claude Code appends in place; in copy mode the next sync takes the new bytes.
    Deno.writeTextFileSync(join(folder, `${A}.jsonl`), '{"type":"user","appended":1}\n', {
      append: true,
    });
    if (copyMode) {
      const again = await world.run(["vault", "sync"]);
      assert.equal(again.code, 0, again.stderr);
    }
    const before = tree(folder);
    const vaultA = vaultFilesFor(world.paths, { guid: A, dir: world.project }).transcript;
    const linked = Deno.statSync(vaultA).ino === Deno.statSync(join(folder, `${A}.jsonl`)).ino;
    assert.equal(linked, !copyMode, copyMode ? "a copy, not a link" : "a hard link");
    for (const id of [A, B, C]) age(folder, id, 40);
    assert.deepEqual(claudeCleanup(folder, 30).sort(), [A, B, C].map((id) => `${id}.jsonl`).sort());

    world.claudeScenario({ messages: ["carry on"] });
    const resumed = await world.run(["resume", "1"], { stdin: "\n" });
    assert.equal(resumed.code, 0, resumed.stderr);
    const offer = resumed.stderr.indexOf("Restore it from the vault and resume? [Y/n]");
    assert.ok(offer >= 0, resumed.stderr);
    assert.ok(!/\? \[|: $/m.test(resumed.stderr.slice(0, offer)), "the restore offer comes first");
    const [launch] = world.launches();
    assert.deepEqual(launch.argv.slice(1, 3), ["--resume", A]);
    const after = Deno.readFileSync(join(folder, `${A}.jsonl`));
    const was = before.get(`${A}.jsonl`)!;
    assert.ok(after.length > was.length, "claude appended to the restored transcript");
    assert.deepEqual(after.subarray(0, was.length), was, "every line, appended ones included");

    const byNumber = await world.run(["restore", "2"]);
    assert.equal(byNumber.code, 0, byNumber.stderr);
    // Its last line says what to do next with what it put back (issue 31 item 11).
    assert.match(byNumber.stdout, /\n {2}Next: claudecm resume 2\n$/);
    const byId = await world.run(["restore", C]);
    assert.equal(byId.code, 0, byId.stderr);
    const restored = tree(folder);
    for (const [path, bytes] of before) {
      if (path.startsWith(A)) continue;
      assert.deepEqual(restored.get(path), bytes, `${path} back byte for byte`);
    }
  } finally {
    world.cleanup();
  }
}

Deno.test("vault: Claude Code's clean-up, then resume + Enter restores and restore brings back the rest", async () => {
  await cleanupPlay(false);
});

Deno.test("vault, copy mode: an append between two syncs is kept, and the clean-up play restores it", async () => {
  await cleanupPlay(true);
});

Deno.test("restore: a different file already there: exit 1 and nothing at all written", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    Deno.removeSync(join(folder, B, "subagents", "agent-1.jsonl"));
    Deno.removeSync(join(folder, `${B}.jsonl`));
    // Claude started over under the same name: a different file (a new inode) at the exact path.
    Deno.removeSync(join(folder, B, "tool-results", "out.txt"));
    Deno.writeTextFileSync(join(folder, B, "tool-results", "out.txt"), "something else\n");
    const result = await world.run(["restore", B]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /different file is already there: .*out\.txt/);
    assert.ok(!pathExists(join(folder, `${B}.jsonl`)), "no transcript written");
    assert.ok(!pathExists(join(folder, B, "subagents", "agent-1.jsonl")), "no sidecar written");
  } finally {
    world.cleanup();
  }
});

Deno.test("vault sync: one at a time; a sync that cannot have the vault's lock writes nothing and says so", async () => {
  const world = createLaunchWorld();
  try {
    seed(world);
    world.env.CLAUDECM_VAULT = "copy";
    Deno.mkdirSync(world.paths.cmHome, { recursive: true });
    // Another claudecm's sync, as far as the lock can tell.
    const other = Deno.openSync(`${world.paths.vaultDir}.lock`, { write: true, create: true });
    other.lockSync(true);
    try {
      const waited = await world.run(["vault", "sync"]);
      assert.equal(waited.code, 1);
      assert.match(waited.stderr, /Another claudecm is updating the vault now/);
      assert.equal(tree(world.paths.vaultDir).size, 0, "nothing written");
    } finally {
      other.close();
    }
    const synced = await world.run(["vault", "sync"]);
    assert.equal(synced.code, 0, synced.stderr);
    assert.ok(pathExists(vaultFilesFor(world.paths, { guid: A, dir: world.project }).transcript));
  } finally {
    world.cleanup();
  }
});

Deno.test("vault --json: protected sessions, how, bytes; an unwritten transcript is unprotected, exit 0", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    const never = sessionId(0x44);
    Deno.writeTextFileSync(world.paths.registryFile, `${never}|${world.project}|Never|\n`, {
      append: true,
    });
    assert.equal((await world.run(["list"])).code, 0, "plain list syncs before it exits");
    const result = await world.run(["vault", "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    type Row = {
      sessionId: string;
      protected: boolean;
      mode: string | null;
      bytes: number;
      reason: string | null;
    };
    const byId = new Map<string, Row>(report.sessions.map((s: Row) => [s.sessionId, s]));
    assert.deepEqual(
      [...byId.values()].map((s) => [s.sessionId, s.protected, s.mode]),
      [[A, true, "link"], [B, true, "link"], [C, true, "link"], [never, false, null]],
    );
    assert.match(byId.get(never)!.reason!, /no transcript/);
    const size = Deno.statSync(join(folder, `${B}.jsonl`)).size + 12 + 12;
    assert.equal(byId.get(B)!.bytes, size);
    assert.equal(report.totals.extraBytes, 0, "hard links cost nothing extra");
    // Claude Code's clean-up takes B's transcript: the vault's entry is the only copy left,
    // which says nothing of whether links can be made.
    Deno.removeSync(join(folder, `${B}.jsonl`));
    const after = await world.run(["vault"]);
    assert.match(after.stdout, /Beta work {2}\[only copy /);
    assert.match(after.stdout, /\(2 by hard link, 0 by copy, 1 the only copy left\)/);
    assert.doesNotMatch(after.stdout, /Copy mode: hard links could not be made/);
  } finally {
    world.cleanup();
  }
});

Deno.test("D#: the confirmation lists the vault's copy; 'delete' removes it, a cancel keeps it", async () => {
  const world = createLaunchWorld();
  try {
    seed(world);
    const vaultB = vaultFilesFor(world.paths, { guid: B, dir: world.project });
    const cancelled = await world.run([], { stdin: "e\nd2\nno\nq\n" });
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.match(
      cancelled.stdout,
      new RegExp(`its copy in the vault: .*${B}\\.jsonl \\(3 files\\)`),
    );
    assert.ok(pathExists(vaultB.transcript), "a cancel keeps the vault's copy");
    const deleted = await world.run([], { stdin: "e\nd2\ndelete\nq\n" });
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /Deleted: Beta work/);
    assert.ok(!pathExists(vaultB.transcript) && !pathExists(vaultB.sidecar), "vault copy gone");
    const vaultA = vaultFilesFor(world.paths, { guid: A, dir: world.project });
    assert.ok(pathExists(vaultA.transcript), "only that session");
  } finally {
    world.cleanup();
  }
});

Deno.test("vault: an entry kept under the key of a row's former folder still restores, is never pruned, and D# removes it", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    const formerEntry = vaultFilesFor(world.paths, { guid: B, dir: world.project });
    // The row's folder changed since (a P# by an older claudecm, a folder turned into a link):
    // its transcript, then gone by Claude Code's clean-up, was last under the new folder's key.
    const moved = moveRowOfB(world);
    Deno.removeSync(join(folder, `${B}.jsonl`));
    Deno.removeSync(join(folder, B), { recursive: true });
    const dry = await world.run(["vault", "prune", "--dry-run"]);
    assert.match(dry.stdout, /Nothing to prune/, "a registered session's entry stays");
    const restored = await world.run(["restore", B]);
    assert.equal(restored.code, 0, restored.stderr);
    const now = join(projectDirFor(world.paths, moved), `${B}.jsonl`);
    assert.deepEqual(Deno.readFileSync(now), Deno.readFileSync(formerEntry.transcript));
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    const deleted = await world.run([], { stdin: "e\nd2\ndelete\nq\n" });
    assert.match(deleted.stdout, /Deleted: Beta work/, deleted.stderr);
    assert.ok(!pathExists(formerEntry.transcript) && !pathExists(formerEntry.sidecar));
    const newEntry = vaultFilesFor(world.paths, { guid: B, dir: moved });
    assert.ok(!pathExists(newEntry.transcript), "no entry of a deleted session is left");
  } finally {
    world.cleanup();
  }
});

Deno.test("vault: a transcript under another folder's key than its row's is protected where it is", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    // The row names a folder whose key holds nothing: claude finds the session by id anywhere.
    moveRowOfB(world);
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    const entry = vaultFilesFor(world.paths, { guid: B, dir: world.project });
    assert.deepEqual(
      Deno.readFileSync(entry.transcript),
      Deno.readFileSync(join(folder, `${B}.jsonl`)),
    );
    const report = JSON.parse((await world.run(["vault", "--json"])).stdout);
    const status = report.sessions.find((s: { sessionId: string }) => s.sessionId === B);
    assert.equal(status.protected, true, JSON.stringify(status));
  } finally {
    world.cleanup();
  }
});

/** Whether `chattr +i` works here (root on a file system with the immutable flag). */
function immutableWorks(): boolean {
  if (Deno.build.os !== "linux") return false;
  const probe = Deno.makeTempFileSync();
  try {
    const set = new Deno.Command("chattr", { args: ["+i", probe], stderr: "null" }).outputSync();
    if (!set.success) return false;
    new Deno.Command("chattr", { args: ["-i", probe] }).outputSync();
    return true;
  } catch {
    return false;
  } finally {
    Deno.removeSync(probe);
  }
}

function chattr(flag: "+i" | "-i", path: string): void {
  assert.ok(new Deno.Command("chattr", { args: [flag, path] }).outputSync().success);
}

Deno.test({
  name: "D#: a file that cannot be removed is named; the row goes only with the last transcript",
  ignore: !immutableWorks(),
  fn: async () => {
    const world = createLaunchWorld();
    try {
      const folder = seed(world);
      world.env.CLAUDECM_VAULT = "copy";
      assert.equal((await world.run(["vault", "sync"])).code, 0);
      const vaultB = vaultFilesFor(world.paths, { guid: B, dir: world.project });
      const stuckInVault = join(vaultB.sidecar, "tool-results", "out.txt");
      const stuckTranscript = join(folder, `${C}.jsonl`);
      chattr("+i", stuckInVault);
      chattr("+i", stuckTranscript);
      try {
        const deleted = await world.run([], { stdin: "e\nd2\ndelete\nq\n" });
        assert.match(
          deleted.stdout,
          /Deleted: Beta work, except these, which could not be removed/,
        );
        assert.match(deleted.stdout, new RegExp(escapeRegExp(vaultB.transcript)));
        assert.ok(!pathExists(join(folder, `${B}.jsonl`)));
        assert.ok(!Deno.readTextFileSync(world.paths.registryFile).includes(B), "row gone");
        const kept = await world.run([], { stdin: "e\nd2\ndelete\nq\n" });
        assert.match(kept.stdout, /'Gamma work' was not deleted whole; the entry is kept/);
        assert.match(kept.stdout, new RegExp(escapeRegExp(stuckTranscript)));
        assert.ok(Deno.readTextFileSync(world.paths.registryFile).includes(C), "row kept");
        const vaultC = vaultFilesFor(world.paths, { guid: C, dir: world.project });
        assert.ok(pathExists(vaultC.transcript), "still restorable from the vault");
      } finally {
        chattr("-i", stuckInVault);
        chattr("-i", stuckTranscript);
      }
    } finally {
      world.cleanup();
    }
  },
});

Deno.test("vault: an older copy elsewhere does not hide the vault's newer transcript: resume offers it", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    const full = Deno.readFileSync(join(folder, `${A}.jsonl`));
    const cut = full.indexOf(0x0a) + 1;
    // An older copy in another folder (an old P#, a hand copy), then the clean-up of the live one.
    const elsewhere = projectDirFor(world.paths, join(world.dir, "old place"));
    Deno.mkdirSync(elsewhere, { recursive: true });
    Deno.writeFileSync(join(elsewhere, `${A}.jsonl`), full.subarray(0, cut));
    Deno.removeSync(join(folder, `${A}.jsonl`));
    world.claudeScenario({ messages: ["carry on"] });
    const resumed = await world.run(["resume", "1"], { stdin: "\n" });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /gone from its folder; an older copy is at /);
    assert.match(resumed.stderr, /Restore it from the vault and resume\? \[Y\/n\]/);
    const after = Deno.readFileSync(join(folder, `${A}.jsonl`));
    assert.deepEqual(after.subarray(0, full.length), full, "every line the vault had");
    const [launch] = world.launches();
    assert.deepEqual(launch.argv.slice(1, 3), ["--resume", A]);
  } finally {
    world.cleanup();
  }
});

Deno.test("vault prune: --dry-run lists unregistered entries; prune removes only those", async () => {
  const world = createLaunchWorld();
  try {
    seed(world);
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    // A row removed by hand: its entry is no longer any registered session's.
    const rows = Deno.readTextFileSync(world.paths.registryFile).split("\n");
    Deno.writeTextFileSync(
      world.paths.registryFile,
      rows.filter((r) => !r.startsWith(C)).join("\n"),
    );
    const vaultC = vaultFilesFor(world.paths, { guid: C, dir: world.project });
    const dry = await world.run(["vault", "prune", "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      new RegExp(`would remove ${C} +${escapeRegExp(vaultC.transcript)}`),
    );
    assert.match(dry.stdout, /no other link remains/, "the transcript still links the bytes");
    assert.ok(pathExists(vaultC.transcript), "a dry run removes nothing");
    const pruned = await world.run(["vault", "prune"]);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.ok(!pathExists(vaultC.transcript));
    for (const id of [A, B]) {
      assert.ok(
        pathExists(vaultFilesFor(world.paths, { guid: id, dir: world.project }).transcript),
      );
    }
  } finally {
    world.cleanup();
  }
});

Deno.test("vault prune keeps an entry a registry line names even when the line does not parse; restore says which line", async () => {
  const world = createLaunchWorld();
  try {
    seed(world);
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    // The old scripts wrote a typed name verbatim: a '|' in it makes the line one claudecm keeps
    // as written but cannot parse.
    const text = Deno.readTextFileSync(world.paths.registryFile);
    const row = text.split("\n").find((line) => line.startsWith(C))!;
    Deno.writeTextFileSync(
      world.paths.registryFile,
      text.replace(row, `${row.split("|").slice(0, 2).join("|")}|api | auth work|`),
    );
    const vaultC = vaultFilesFor(world.paths, { guid: C, dir: world.project });
    const pruned = await world.run(["vault", "prune"]);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stdout, /Nothing to prune/);
    assert.ok(pathExists(vaultC.transcript), "the only copy of a listed session is kept");
    const restore = await world.run(["restore", C]);
    assert.equal(restore.code, 1);
    assert.match(restore.stderr, /line 3 of the session list names .* but does not parse/);
  } finally {
    world.cleanup();
  }
});

for (
  const [label, args, stdin] of [
    ["claudecm -r ID (pass-through)", ["-r", A], "\n"],
    // new: the orphan scan's Enter, keep the name, resume it, then the restore offer.
    ["claudecm new in the session's folder", ["new"], "\n\n\n\n"],
    ["a pick in list mode", ["list", "--interactive"], "1\n\n"],
  ] as const
) {
  Deno.test(`vault: ${label} offers the restore, and Enter resumes the restored transcript`, async () => {
    const world = createLaunchWorld();
    try {
      const folder = seed(world);
      assert.equal((await world.run(["vault", "sync"])).code, 0);
      Deno.writeTextFileSync(
        world.paths.registryFile,
        `${A}|${world.project}|Alpha work|\n`,
      );
      const before = Deno.readFileSync(join(folder, `${A}.jsonl`));
      Deno.removeSync(join(folder, `${A}.jsonl`));
      world.claudeScenario({ messages: ["carry on"] });
      const result = await world.run([...args], { stdin });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      // A list-mode pick says it on stdout, resume N on stderr (stdout is not a terminal).
      assert.match(
        result.stdout + result.stderr,
        /Restore it from the vault and resume\? \[Y\/n\]/,
      );
      const launch = world.launches().find((l) => l.argv.includes("--resume"));
      assert.equal(launch?.argv[launch.argv.indexOf("--resume") + 1], A);
      const after = Deno.readFileSync(join(folder, `${A}.jsonl`));
      assert.deepEqual(after.subarray(0, before.length), before);
    } finally {
      world.cleanup();
    }
  });
}

Deno.test("vault sync, vault prune and restore answer --json with one object each", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    const sync = await world.run(["vault", "sync", "--json"]);
    assert.equal(sync.code, 0, sync.stderr);
    assert.deepEqual(JSON.parse(sync.stdout), {
      synced: 3,
      updated: 3,
      byCopy: 0,
      withoutTranscript: 0,
    });
    Deno.removeSync(join(folder, `${A}.jsonl`));
    const restore = await world.run(["restore", "1", "--json"]);
    assert.equal(restore.code, 0, restore.stderr);
    assert.deepEqual(JSON.parse(restore.stdout), {
      sessionId: A,
      status: "restored",
      transcript: join(folder, `${A}.jsonl`),
    });
    const again = JSON.parse((await world.run(["restore", A, "--json"])).stdout);
    assert.equal(again.status, "in-place");
    const rows = Deno.readTextFileSync(world.paths.registryFile);
    Deno.writeTextFileSync(
      world.paths.registryFile,
      rows.split("\n").filter((r) => !r.startsWith(C)).join("\n"),
    );
    const vaultC = vaultFilesFor(world.paths, { guid: C, dir: world.project }).transcript;
    for (const dryRun of [true, false]) {
      const prune = await world.run(["vault", "prune", "--json", ...dryRun ? ["--dry-run"] : []]);
      assert.equal(prune.code, 0, prune.stderr);
      const report = JSON.parse(prune.stdout);
      assert.equal(report.dryRun, dryRun);
      assert.deepEqual(report.entries.map((e: { sessionId: string }) => e.sessionId), [C]);
      assert.equal(report.entries[0].transcript, vaultC);
      assert.equal(pathExists(vaultC), dryRun);
    }
    const none = JSON.parse((await world.run(["vault", "prune", "--json"])).stdout);
    assert.deepEqual(none, { dryRun: false, entries: [] });
  } finally {
    world.cleanup();
  }
});

Deno.test("CLAUDECM_VAULT: on, copy and off; a value it does not know is said and keeps the default", async () => {
  const world = createLaunchWorld();
  try {
    seed(world);
    const sync = async (value: string) => {
      world.env.CLAUDECM_VAULT = value;
      const run = await world.run(["vault", "sync", "--json"]);
      assert.equal(run.code, 0, run.stderr);
      return { ...JSON.parse(run.stdout || "{}"), stderr: run.stderr };
    };
    const on = await sync("on");
    assert.deepEqual([on.synced, on.byCopy, on.stderr], [3, 0, ""]);
    const typo = await sync("cpy");
    assert.equal(typo.byCopy, 0, "links, as by default");
    assert.match(
      typo.stderr,
      /CLAUDECM_VAULT=cpy is not off, copy or on: the vault keeps hard links/,
    );
    world.env.CLAUDECM_VAULT = "Of";
    const status = await world.run(["vault"]);
    assert.match(status.stderr, /CLAUDECM_VAULT=Of is not off, copy or on/);
  } finally {
    world.cleanup();
  }
});

Deno.test("vault sync: one session's transcript that cannot be read fails that session only", async () => {
  const world = createLaunchWorld();
  try {
    const folder = seed(world);
    const looped = join(folder, `${A}.jsonl`);
    Deno.removeSync(looped);
    if (!symlinkIfSupported(looped, looped)) return;
    const sync = await world.run(["vault", "sync"]);
    assert.match(sync.stderr, /The vault could not be updated: .*(symbolic links|loop)/i);
    for (const guid of [B, C]) {
      const vault = vaultFilesFor(world.paths, { guid, dir: world.project });
      assert.ok(pathExists(vault.transcript), `${guid} is synced all the same`);
    }
  } finally {
    world.cleanup();
  }
});
