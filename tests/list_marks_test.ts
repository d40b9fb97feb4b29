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

const LONG = "A very long session name that goes on ".repeat(3).trim();

/** Columns a line takes on a terminal, its tab expanded to the next multiple of 8. */
function columnsOf(line: string): number {
  const tab = line.indexOf("\t");
  const before = displayWidth(line.slice(0, tab));
  return (Math.floor(before / 8) + 1) * 8 + displayWidth(line.slice(tab + 1));
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
    assert.match(list.stderr, /2 lines claudecm cannot read \(lines 3, 6\)/);
    const doctor = await world.run(["doctor"]);
    assert.match(doctor.stdout + doctor.stderr, /line 3: not a row/);
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
      const run = await typeInTerminal(world, ["list"], {
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
