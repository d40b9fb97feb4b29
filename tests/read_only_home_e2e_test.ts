/**
 * Every "cannot write ~/.claudecm" cause takes one path (issue 30 item 11): on a read-only
 * file system (EROFS), as with no permission or a full disk, `find` searches the transcripts
 * without its index, `list` shows the list and says once that nothing is saved, and `vault
 * sync` says in one line that the vault could not be written.
 */

import assert from "node:assert/strict";
import { runOnReadOnlyDisk, tmpfsMountable } from "./helpers/full_disk.ts";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";

const ignore = !tmpfsMountable();

Deno.test({
  name:
    "a read-only ~/.claudecm: find scans without the index, list warns once, vault sync says why",
  ignore,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      const [alpha] = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]).main;
      const run = (args: string[]) =>
        runOnReadOnlyDisk(args, {
          env: world.env,
          cwd: world.project,
          readOnly: world.paths.cmHome,
        });
      const before = Deno.readTextFileSync(world.paths.registryFile);

      const find = await run(["find", "--json", "Alpha"]);
      assert.equal(find.code, 0, find.stderr);
      assert.deepEqual(
        JSON.parse(find.stdout).results.map((r: { sessionId: string }) => r.sessionId),
        [alpha.guid],
      );
      const findLines = find.stderr.trim().split("\n");
      assert.equal(findLines.length, 1, find.stderr);
      assert.match(findLines[0], /read-only file system.*; searching the transcripts without it/i);

      const list = await run(["list"]);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /Alpha/);
      // Said once; the first run's protection note is beside it, off the piped table.
      const warnings = list.stderr.split("\n").filter((line) => /Nothing can be saved/.test(line));
      assert.equal(warnings.length, 1, list.stderr);
      assert.match(warnings[0], /^ *Nothing can be saved in this run: .*read-only file system/);

      const sync = await run(["vault", "sync"]);
      assert.equal(sync.code, 1);
      assert.match(sync.stderr, /The vault could not be updated: .*(read-only|os error 30)/i);
      assert.equal(Deno.readTextFileSync(world.paths.registryFile), before);
    }),
});
