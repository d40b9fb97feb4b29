/**
 * End to end: every mark the list shows is in its legend, piped or not;
 * names are cut to a terminal's width (piped output and --json keep them
 * whole); registry lines that do not parse are reported once (issue 18 items
 * 12-14). The table's own rules are in session_list_test.ts.
 */

import assert from "node:assert/strict";
import { displayWidth } from "../lib/ui/text_width.ts";
import { inWorldWithoutCmv, openInAnotherWindow } from "./helpers/launch_world.ts";
import { HAVE_PTY } from "./helpers/real_claude.ts";
import { typeInTerminal } from "./helpers/terminal_session.ts";
import { seedSessions } from "./helpers/seed.ts";
import { join } from "node:path";
import { pathExists } from "../lib/core/fs_checks.ts";
import { transcriptPathFor } from "../lib/core/paths.ts";
import { liveSessionIds } from "../lib/platform/live_sessions.ts";

const LONG = "A very long session name that goes on ".repeat(3).trim();

/** Columns a line takes on a terminal (the table holds no tab). */
function columnsOf(line: string): number {
  assert.ok(!line.includes("\t"), `no tab: ${line}`);
  return displayWidth(line);
}

Deno.test("piped list shows the legend and whole names; bad registry lines are reported once", () =>
  inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: LONG }, { desc: "Lost", missing: true }]);
    openInAnotherWindow(world, main[0].guid);
    const text = Deno.readTextFileSync(world.paths.registryFile);
    Deno.writeTextFileSync(world.paths.registryFile, `${text}not a row\n${text}garbage|\n`);
    const list = await world.run(["list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.ok(list.stdout.includes(LONG), "piped output keeps names whole");
    assert.match(list.stdout, /\[live\] = open in a claude window now/);
    assert.match(list.stdout, /\(missing\) = /);
    const warnings = list.stderr.match(/cannot read/g) ?? [];
    assert.equal(warnings.length, 1, list.stderr);
    // Lines 4 and 5 list the two sessions again: a second row for a session is not read either.
    assert.match(list.stderr, /4 lines claudecm cannot read \(lines 3, 4, 5, 6\)/);
    const doctor = await world.run(["doctor"]);
    assert.match(doctor.stdout + doctor.stderr, /line 3: not a row/);
    assert.match(doctor.stdout + doctor.stderr, new RegExp(`line 4: ${main[0].guid}`));
    const json = JSON.parse((await world.run(["list", "--json"])).stdout);
    assert.equal(json.sessions[0].desc, LONG);
  }));

Deno.test({
  name: "in a terminal, list cuts a long name to its width so rows stay on one line",
  ignore: !HAVE_PTY,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: LONG }, { desc: "Short" }]);
      // Wide enough for the temporary folder's long path beside a cut name.
      const run = await typeInTerminal(world, ["list", "--numbers"], {
        steps: [{ waitFor: /Pick a session/, keys: "\r" }],
        columns: 120,
      });
      const { screen } = run;
      const rows = screen.split(/\r?\n/).filter((line) => /^\s+\d\. /.test(line));
      assert.equal(rows.length, 2, screen);
      for (const line of rows) assert.ok(columnsOf(line) <= 120, line);
      assert.match(rows[0], /…/);
    }),
});

Deno.test("a live session with no transcript yet is new, not missing, in list, --json, doctor and the edit list", () =>
  inWorldWithoutCmv(async (world) => {
    // Window A ran `new` and has not sent its first message: a pid manifest, no transcript.
    const { main } = seedSessions(world, [{ desc: "Fresh", missing: true }, {
      desc: "Lost",
      missing: true,
    }]);
    openInAnotherWindow(world, main[0].guid);
    const list = await world.run(["list"]);
    assert.equal(list.code, 0, list.stderr);
    const fresh = list.stdout.split("\n").find((line) => line.includes("Fresh")) ?? "";
    assert.doesNotMatch(fresh, /missing/, list.stdout);
    assert.match(fresh, /\[live\].*\(new\)/, list.stdout);
    assert.match(list.stdout, /\(new\) = open in a claude window that has not saved/);
    const lost = list.stdout.split("\n").find((line) => line.includes("Lost")) ?? "";
    assert.match(lost, /\(missing\)/, "a closed session with no transcript is still missing");
    const json = JSON.parse((await world.run(["list", "--json"])).stdout);
    assert.deepEqual(
      json.sessions.map((s: { status: string; live: boolean }) => [s.status, s.live]),
      [["new", true], ["missing", false]],
    );
    const doctor = JSON.parse((await world.run(["doctor", "--json"])).stdout);
    assert.deepEqual(
      doctor.registry.missingTranscripts.map((m: { guid: string }) => m.guid),
      [main[1].guid],
    );
    const edit = await world.run([], { stdin: "e\nd1\ndelete\n" });
    assert.match(edit.stdout, /'Fresh' is open in a claude window now; close it first/);
    assert.equal(world.sessions().length, 2, "nothing was deleted");
  }));

Deno.test("vault status calls a live session with no transcript yet new, not lost", () =>
  inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Fresh", missing: true }]);
    openInAnotherWindow(world, main[0].guid);
    const status = await world.run(["vault", "--json"]);
    assert.equal(status.code, 0, status.stderr);
    const reasons = JSON.stringify(JSON.parse(status.stdout));
    assert.doesNotMatch(reasons, /deleted before the vault had it/);
    assert.match(reasons, /open in a claude window that has not saved its first message yet/);
  }));

Deno.test("while window A's new claude has not saved a message, window B sees it new and cannot take it", () =>
  inWorldWithoutCmv(async (world) => {
    // A's claude waits until the checks are done: a fixed sleep ran out under wine's slower starts.
    const release = join(world.dir, "release");
    world.claudeScenario({ steps: [{ waitForFile: release }, { say: "first message" }] });
    seedSessions(world, [{ desc: "Older" }]);
    const fresh = join(world.dir, "fresh");
    Deno.mkdirSync(fresh);
    const windowA = world.run(["new"], { cwd: fresh, stdin: "Fresh one\n" });
    try {
      await checkWhileNew();
    } finally {
      Deno.writeTextFileSync(release, "");
    }
    const a = await windowA;
    assert.equal(a.code, 0, a.stderr);
    const rows = world.sessions();
    assert.deepEqual(rows.map((s) => s.desc).sort(), ["Fresh one", "Older"]);
    const row = rows.find((s) => s.desc === "Fresh one")!;
    assert.ok(pathExists(transcriptPathFor(world.paths, fresh, row.guid)), "A's transcript");

    async function checkWhileNew(): Promise<void> {
      // A marks the session in use, then writes its row, then starts claude: wait for both.
      const deadline = Date.now() + 15_000;
      const rowOfA = () => world.sessions().find((s) => s.desc === "Fresh one");
      while ((!liveSessionIds(world.paths).size || !rowOfA()) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const row = rowOfA();
      assert.ok(row, "A registered its row before claude started");
      assert.ok(!pathExists(transcriptPathFor(world.paths, fresh, row.guid)), "no transcript yet");
      const list = await world.run(["list"]);
      assert.match(list.stdout, /Fresh one \[live\]\s+\(new\)/);
      const json = JSON.parse((await world.run(["list", "--json"])).stdout);
      assert.equal(json.sessions[0].status, "new");
      const resumed = await world.run(["resume", "1"], { stdin: "1\n1\n" });
      assert.doesNotMatch(resumed.stdout, /gone/);
      const deleted = await world.run([], { stdin: "e\nd1\ndelete\n" });
      assert.match(deleted.stdout, /open in a claude window now; close it first/);
    }
  }));

Deno.test("piped list: one header line, then aligned rows with no tab; --json for scripts", () =>
  inWorldWithoutCmv(async (world) => {
    seedSessions(world, [{ desc: "Billing service" }, { desc: "Docs", missing: true }]);
    await world.run(["list"]); // the first run's bootstrap says what it did
    const list = await world.run(["list"]);
    assert.equal(list.code, 0, list.stderr);
    const [header, ...rest] = list.stdout.split("\n");
    assert.match(header, /^ {2}# +Name +Size +Tokens +Last used +Folder$/, list.stdout);
    const rows = rest.filter((line) => /^ {2}\d+\. /.test(line));
    assert.equal(rows.length, 2, list.stdout);
    assert.ok(!list.stdout.includes("\t"), "no tab anywhere");
    for (const line of rows) assert.equal(line.indexOf(world.project), header.indexOf("Folder"));
    const json = JSON.parse((await world.run(["list", "--json"])).stdout);
    assert.deepEqual(json.sessions.map((s: { desc: string }) => s.desc), [
      "Billing service",
      "Docs",
    ]);
  }));

Deno.test("a session whose folder is gone is marked in the list, the edit list and --json; doctor agrees", () =>
  inWorldWithoutCmv(async (world) => {
    const gone = join(world.dir, "moved-away");
    const { main } = seedSessions(world, [{ desc: "Here" }, { desc: "Moved", dir: gone }]);
    Deno.removeSync(gone, { recursive: true });
    const list = await world.run(["list"]);
    assert.equal(list.code, 0, list.stderr);
    const line = (name: string) => list.stdout.split("\n").find((l) => l.includes(name)) ?? "";
    assert.match(line("Moved"), /moved-away \(folder gone: claudecm move\)$/, list.stdout);
    assert.doesNotMatch(line("Here"), /folder gone/);
    assert.match(list.stdout, /\(folder gone: claudecm move\) = .*claudecm move OLD NEW/);
    const json = JSON.parse((await world.run(["list", "--json"])).stdout);
    assert.deepEqual(
      json.sessions.map((s: { folderGone: boolean }) => s.folderGone),
      [false, true],
    );
    const search = await world.run(["search", "moved"]);
    assert.match(search.stdout, /\(folder gone: claudecm move\)/);
    const edit = await world.run([], { stdin: "e\n\n\n" });
    assert.match(edit.stdout, /2\. Moved \[.*moved-away\] \(folder gone: claudecm move\)/);
    const doctor = JSON.parse((await world.run(["doctor", "--json"])).stdout);
    assert.deepEqual(
      doctor.registry.missingDirs.map((d: { dir: string }) => d.dir),
      [main[1].dir],
    );
  }));

Deno.test("find marks a result whose folder is gone, as the list does", () =>
  inWorldWithoutCmv(async (world) => {
    const gone = join(world.dir, "moved-away");
    seedSessions(world, [{ desc: "Here" }, { desc: "Moved", dir: gone }]);
    Deno.removeSync(gone, { recursive: true });
    const found = await world.run(["find", "work"]);
    assert.equal(found.code, 0, found.stderr);
    const lines = found.stdout.split("\n");
    const folderOf = (name: string) => lines[lines.findIndex((l) => l.includes(name)) + 1] ?? "";
    assert.match(folderOf("Moved"), /moved-away \(folder gone: claudecm move\)$/, found.stdout);
    assert.doesNotMatch(folderOf("Here"), /folder gone/, found.stdout);
  }));
