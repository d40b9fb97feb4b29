// A marker left by a killed claudecm counts for nothing, and the next one that marks a session
// removes it (found by a kill loop: each killed resume left a file for good).
import assert from "node:assert/strict";
import { join } from "node:path";
import { markSessionInUse } from "../lib/store/resume_marker.ts";
import { createTestContext } from "./helpers/test_context.ts";

Deno.test("marking a session removes dead claudecms' markers and temp files, never a live one's", async () => {
  const t = createTestContext();
  const other = new Deno.Command(Deno.execPath(), {
    args: ["eval", "setTimeout(() => {}, 60_000)"],
    stdout: "null",
  }).spawn();
  try {
    const dir = t.ctx.paths.resumingDir;
    Deno.mkdirSync(dir, { recursive: true });
    const dead = 999_999_999;
    for (const name of [`${dead}.json`, `${dead}.json.tmp-${dead}`, `${other.pid}.json`]) {
      Deno.writeTextFileSync(join(dir, name), "{}");
    }
    const unmark = markSessionInUse(t.ctx.paths, {
      guid: "0f0f0f0f-0000-4000-8000-000000000000",
      cwd: t.home,
    });
    const names = () => [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names(), [`${Deno.pid}.json`, `${other.pid}.json`].sort());
    unmark();
    assert.deepEqual(names(), [`${other.pid}.json`]);
  } finally {
    other.kill("SIGKILL");
    await other.status;
    t.cleanup();
  }
});
