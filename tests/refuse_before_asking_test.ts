// Issue 30 item 17: a question whose answer would be saved in ~/.claudecm is not asked while it
// takes no writes; the reason is said instead. /sys refuses every write (even root's), as a
// read-only or full ~/.claudecm does; the full-disk and read-only e2e tests cover the rest.
import assert from "node:assert/strict";
import { createTestContext } from "./helpers/test_context.ts";
import { askWhereFolderWent } from "../lib/app/move/gone_folder.ts";
import { nothingSaves, refusedBeforeAsking } from "../lib/app/save_check.ts";
import { writeRefusalIn } from "../lib/store/write_probe.ts";

const REFUSING = Deno.build.os === "linux" && writeRefusalIn("/sys") !== null ? "/sys" : null;

Deno.test("the write probe: a writable folder says nothing and is left as it was", () => {
  const t = createTestContext();
  try {
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    const old = new Date("2026-01-01T00:00:00Z");
    Deno.utimeSync(t.ctx.paths.cmHome, old, old);
    assert.equal(nothingSaves(t.ctx), null);
    assert.deepEqual([...Deno.readDirSync(t.ctx.paths.cmHome)], []);
    assert.equal(Deno.statSync(t.ctx.paths.cmHome).mtime?.getTime(), old.getTime());
    // A folder not made yet is its writer's to make: not a refusal.
    Deno.removeSync(t.ctx.paths.cmHome, { recursive: true });
    assert.equal(refusedBeforeAsking(t.ctx, "Anything"), false);
  } finally {
    t.cleanup();
  }
});

Deno.test({
  name: "a gone folder's question is not asked when its rows could not follow",
  ignore: REFUSING === null,
  fn: async () => {
    const t = createTestContext({ answers: ["/somewhere/else"] });
    try {
      t.ctx.paths = { ...t.ctx.paths, cmHome: REFUSING! };
      const session = {
        guid: "11111111-0000-4000-8000-000000000001",
        dir: "/gone/folder",
        desc: "Gone",
        tokens: "",
      };
      assert.equal(await askWhereFolderWent(t.ctx, session), null);
      assert.deepEqual(t.questions, []);
      assert.match(
        t.stdout(),
        /Moving its sessions to where the folder went is not possible: nothing can be saved in this run: permission denied: \/sys/,
      );
    } finally {
      t.cleanup();
    }
  },
});
