/**
 * adopt leaves out a conversation with no real prompt (what `/clear`
 * leaves), and claudecm's own `<machine> - ` launch prefix is not part of a
 * title wherever one is read (issue 31 defect 6).
 */

import assert from "node:assert/strict";
import { runAdopt } from "../lib/app/adopt/adopt.ts";
import { transcriptTitle } from "../lib/app/launch/launch_name.ts";
import { mainSessions } from "../lib/core/registry.ts";
import { readRegistry } from "../lib/store/registry_store.ts";
import { titleOf, withoutOwnPrefix } from "../lib/transcript/session_title.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { keyDirOf, makeFolder, save } from "./helpers/projects.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { runClaudecm } from "./helpers/run_cli.ts";

Deno.test("adopt skips a /clear-only conversation and strips its own machine prefix", async () => {
  const t = createTestContext({ interactive: false });
  try {
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "laptop\n");
    const app = makeFolder(t.home, "src/app");
    const cleared = new TranscriptBuilder({ cwd: app })
      .prompt("<command-name>/clear</command-name>\n<command-message>clear</command-message>")
      .metadata({ mode: "normal" });
    const named = new TranscriptBuilder({ cwd: app }).prompt("build the webapp").text("ok")
      .metadata({ customTitle: "laptop - laptop - Webapp", aiTitle: "Webapp work" });
    save(keyDirOf(t.ctx, app), cleared);
    save(keyDirOf(t.ctx, app), named);
    assert.equal(await runAdopt(t.ctx, { all: true }), 0);
    const rows = mainSessions(readRegistry(t.ctx.paths)).map((s) => [s.guid, s.desc]);
    assert.deepEqual(rows, [[named.sessionId, "Webapp"]]);
    // The name the next launch gives claude is the title without the prefix, not a second one.
    assert.equal(transcriptTitle(t.ctx, { guid: named.sessionId, dir: app }), "Webapp");
  } finally {
    t.cleanup();
  }
});

Deno.test("titleOf strips the machine prefix only: other words and other machines stay", () => {
  assert.equal(withoutOwnPrefix("desk - desk - Billing", "desk"), "Billing");
  assert.equal(withoutOwnPrefix("laptop - Billing", "desk"), "laptop - Billing");
  assert.equal(withoutOwnPrefix("Fix - the bug", undefined), "Fix - the bug");
  assert.equal(withoutOwnPrefix("desktop - Billing", "desk"), "desktop - Billing");
  // A title that is only the prefix falls through to the next one.
  assert.equal(
    titleOf({ customTitle: "desk - ", aiTitle: "Claude's" }, { machine: "desk" }),
    "Claude's",
  );
});

Deno.test("recover lists a session by its title without claudecm's machine prefix", async () => {
  const t = createTestContext();
  try {
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "laptop\n");
    const cwd = makeFolder(t.home, "src/web");
    save(
      keyDirOf(t.ctx, cwd),
      new TranscriptBuilder({ cwd, start: new Date(Date.now() - 3_600_000) })
        .metadata({ customTitle: "laptop - Webapp" }).prompt("build it").text("ok"),
    );
    const run = await runClaudecm(["recover", "--json"], { env: t.env, cwd });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout).candidates.map((c: { title: string }) => c.title), [
      "Webapp",
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a title from a launch before the machine name was saved (the hostname's) is stripped too", async () => {
  // With nobody to ask, a first run launches as `<hostname> - NAME` and saves no name; a later
  // run in a terminal saves another (DESIGN.md 5.2): both prefixes are claudecm's own.
  const t = createTestContext({ interactive: false });
  try {
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "laptop\n");
    const app = makeFolder(t.home, "src/app");
    const early = new TranscriptBuilder({ cwd: app }).prompt("fix billing").text("ok")
      .metadata({ customTitle: `${t.ctx.hostname()} - Billing` });
    save(keyDirOf(t.ctx, app), early);
    assert.equal(await runAdopt(t.ctx, { all: true }), 0);
    assert.deepEqual(mainSessions(readRegistry(t.ctx.paths)).map((s) => s.desc), ["Billing"]);
    assert.equal(transcriptTitle(t.ctx, { guid: early.sessionId, dir: app }), "Billing");
    assert.equal(withoutOwnPrefix("vm - laptop - vm - X", ["laptop", "vm"]), "X");
    assert.equal(withoutOwnPrefix("desk - X", ["laptop", "vm"]), "desk - X");
  } finally {
    t.cleanup();
  }
});
