/**
 * Issue 31 defect 3, as a class: every view that shows sessions shows each by
 * its number in the list (the one `claudecm resume N` takes), never by its
 * position in that view alone. Search is in search_e2e_test.ts, find in
 * find_cli_test.ts, rescue in rescue_flow_test.ts.
 */

import assert from "node:assert/strict";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { projectDirFor } from "../lib/core/paths.ts";

Deno.test("recover's candidates say their list number, or that they are not in the list", () =>
  inWorldWithoutCmv(async (world) => {
    const other = `${world.dir}/other`;
    const { main } = seedSessions(world, [{ desc: "Elsewhere", dir: other }, { desc: "Here" }]);
    const unlisted = crypto.randomUUID();
    save(
      projectDirFor(world.paths, world.project),
      finishedSession({ sessionId: unlisted, cwd: world.project, ask: "Not listed" }),
    );
    const result = await world.run(["recover"], { cwd: world.project });
    assert.equal(result.code, 0, result.stderr);
    const line = (id: string) => result.stdout.split("\n").find((l) => l.includes(id)) ?? "";
    assert.match(line(main[1].guid), /^ {2}\d\) .*\(#2\)$/, result.stdout);
    assert.match(line(unlisted), /\(not in list\)$/, result.stdout);
  }));

Deno.test("vault shows each session by its list number, the one restore N takes", () =>
  inWorldWithoutCmv(async (world) => {
    seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }], { archived: [{ desc: "Old" }] });
    // Not synced yet: the view is the same for protected sessions (ok) and unprotected ones.
    const result = await world.run(["vault"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /!! {2}#1 Alpha {2}\[/);
    assert.match(result.stdout, /!! {2}#2 Beta {2}\[/);
    assert.match(result.stdout, /!! {2}archived Old {2}\[/);
  }));
