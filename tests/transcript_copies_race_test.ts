import assert from "node:assert/strict";
import { join } from "node:path";
import { keepOneTranscriptCopy } from "../lib/app/session/transcript_copies.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { projectDirFor, transcriptPathFor } from "../lib/core/paths.ts";
import { createTestContext } from "./helpers/test_context.ts";

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Another window's P# makes a copy of the session in its target folder and removes it again
// when its re-check refuses; a resume elsewhere may set a copy aside. Seen under wine: a window
// listed the copies, the other removed one, and the comparison died on "File not found". Here a
// second process makes and removes a copy as fast as it can while this one keeps one copy, again
// and again: it may refuse or set the copy aside, but it must never fail.
const TOGGLER = `
const [source, target] = Deno.args;
const staged = target + ".staged";
for (;;) {
  try {
    Deno.copyFileSync(source, staged);
    Deno.renameSync(staged, target);
    Deno.removeSync(target);
  } catch {
    // Set aside by the other process meanwhile: make it again.
  }
}
`;

Deno.test("keeping one copy while another window makes and removes a copy never fails", async () => {
  const t = createTestContext();
  const guid = "5eed0000-0000-4000-8000-00000000c0de";
  const dir = t.ctx.cwd();
  const own = transcriptPathFor(t.ctx.paths, dir, guid);
  Deno.mkdirSync(projectDirFor(t.ctx.paths, dir), { recursive: true });
  const line = JSON.stringify({ type: "user", sessionId: guid, message: { content: "hi" } });
  Deno.writeTextFileSync(own, `${line}\n`.repeat(2000));
  const elsewhere = join(t.ctx.paths.projectsDir, "-elsewhere");
  Deno.mkdirSync(elsewhere, { recursive: true });
  const source = join(t.home, "copy-source.jsonl");
  Deno.copyFileSync(own, source);
  const toggler = new Deno.Command(Deno.execPath(), {
    args: ["eval", TOGGLER, source, join(elsewhere, `${guid}.jsonl`)],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const copy = join(elsewhere, `${guid}.jsonl`);
    const started = Date.now();
    while (!pathExists(copy) && Date.now() - started < 10_000) await delay(5);
    // At least 1.5 s, and until the other copy was met at least once (a loaded machine is slow).
    const met = () => /had 2 copies|kept changing|were not set aside/.test(t.stdout());
    const until = Date.now() + 1_500;
    const giveUp = Date.now() + 20_000;
    while ((Date.now() < until || !met()) && Date.now() < giveUp) {
      await keepOneTranscriptCopy(t.ctx, { guid, dir, desc: "Raced", registered: false });
    }
    assert.ok(met(), "the copy was met");
    assert.ok(Deno.statSync(own).isFile, "the registered folder's copy stays");
    assert.doesNotMatch(t.stdout(), /diverged/);
  } finally {
    toggler.kill("SIGKILL");
    await toggler.status;
    t.cleanup();
  }
});
