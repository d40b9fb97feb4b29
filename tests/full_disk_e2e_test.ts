/**
 * A hostile user's full disk (issue 17, "Done means"): `~/.claude` or
 * `~/.claudecm` on a full tmpfs. Every command says what it could not write
 * in one line and leaves no empty or temporary file behind.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { runOnFullDisk, tmpfsMountable } from "./helpers/full_disk.ts";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { readDirOrEmpty } from "../lib/core/fs_checks.ts";

const ignore = !tmpfsMountable();

Deno.test({
  name: "a full ~/.claude: creating settings.json leaves no empty temporary file, run after run",
  ignore,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "Alpha" }]);
      const full = world.paths.claudeRoot;
      for (let run = 0; run < 2; run++) {
        const list = await runOnFullDisk(["list"], { env: world.env, cwd: world.project, full });
        assert.equal(list.code, 0, list.stderr);
        assert.match(list.stdout, /Alpha/);
      }
      const names = readDirOrEmpty(full).map((entry) => entry.name);
      assert.deepEqual(names.filter((name) => name.includes(".tmp-")), [], names.join(", "));
      assert.ok(!names.includes("settings.json"), "no settings.json could be written");
      // A run killed between its write and its link left one; Claude Code's own stay.
      Deno.writeTextFileSync(join(full, "settings.json.tmp-999999999"), "");
      Deno.writeTextFileSync(join(full, "history.jsonl.tmp-999999999"), "");
      const freed = await world.run(["list"]);
      assert.deepEqual(
        readDirOrEmpty(full).map((entry) => entry.name).filter((name) => name.includes(".tmp-")),
        ["history.jsonl.tmp-999999999"],
      );
      assert.match(freed.stdout, /Protected session transcripts/);
      const settings = JSON.parse(Deno.readTextFileSync(join(full, "settings.json")));
      assert.equal(settings.cleanupPeriodDays, 100_000);
    }),
});
