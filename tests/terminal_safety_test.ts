/**
 * Escape sequences from transcripts, file names and the registry never reach
 * the terminal (DESIGN.md 5.17): shown visibly or dropped on output, escaped
 * in --json, dropped from names claudecm stores.
 */

import assert from "node:assert/strict";
import { cleanName, safeJson, visibleText } from "../lib/core/safe_text.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { createMemoryOutput } from "../lib/ui/output.ts";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";

const HOSTILE = "Deploy\x1b]52;c;ZXZpbA==\x07 now\x1b[2J\x1b]0;pwned\x07\x9b31m done\x07";
/** ESC, BEL, C1 CSI: any of them raw on a terminal acts. */
// deno-lint-ignore no-control-regex -- control characters are exactly what it looks for
const RAW_CONTROL = /[\x07\x1b\x9b]/;

Deno.test("visibleText shows controls as text; cleanName drops sequences; safeJson escapes C1", () => {
  assert.equal(visibleText("a\x1b[2Jb\x07\x9b\x7f\tc\n"), "a^[[2Jb^G<9B>^?\tc\n");
  assert.equal(cleanName(HOSTILE), "Deploy now done");
  assert.equal(cleanName("two\nlines\tand\x1bc reset"), "two lines and reset");
  const json = safeJson({ name: "x\x9by\x1b" });
  assert.equal(json, '{"name":"x\\u009by\\u001b"}');
  assert.equal(JSON.parse(json).name, "x\x9by\x1b", "the same string reads back");
  const out = createMemoryOutput();
  out.line(HOSTILE);
  out.write(HOSTILE);
  out.redraw("\r\b ok");
  assert.doesNotMatch(out.text().replace("\r\b ok", ""), RAW_CONTROL);
  assert.ok(out.text().endsWith("\r\b ok"), "a spinner still redraws");
});

Deno.test("a find hit is highlighted on a terminal, plain elsewhere; escapes in the text stay visible", async () => {
  const { createOutput } = await import("../lib/ui/output.ts");
  const { printResults } = await import("../lib/app/find/find_view.ts");
  const { MARK_CLOSE, MARK_OPEN } = await import("../lib/app/find/snippet.ts");
  const { createTestContext } = await import("./helpers/test_context.ts");
  const t = createTestContext();
  try {
    const result = {
      sessionId: "s",
      dir: "/p",
      title: "t",
      registered: 1,
      lastActivity: null,
      transcript: "/p/s.jsonl",
      matches: [{
        role: "user" as const,
        timestamp: null,
        snippet: `see ${MARK_OPEN}CHANGELOG${MARK_CLOSE}.md\x1b[2J now`,
      }],
    };
    for (const terminal of [true, false]) {
      let text = "";
      t.ctx.out = createOutput((written) => text += written, { colour: true, terminal });
      printResults(t.ctx, [result]);
      const line = text.split("\n").find((l) => l.includes("CHANGELOG"))!;
      const hit = terminal ? "\x1b[1;33mCHANGELOG\x1b[0m" : "CHANGELOG";
      assert.ok(line.endsWith(`see ${hit}.md^[[2J now`), JSON.stringify(line));
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("safeJson writes a lone surrogate (an undecodable byte kept for round trips) as U+FFFD", () => {
  const json = safeJson({ name: "Caf\udce9 project", typed: "a \\udce9 in text", pair: "😀" });
  assert.equal(json, '{"name":"Caf\\ufffd project","typed":"a \\\\udce9 in text","pair":"😀"}');
  assert.equal(JSON.parse(json).name, "Caf\ufffd project");
  assert.equal(JSON.parse(json).typed, "a \\udce9 in text", "a backslash typed before u stays");
});

Deno.test("bidirectional overrides and isolates are shown, dropped from names and escaped; marks stay", () => {
  const spoof = "invoice\u202Efdp.exe\u202C \u2067x\u2069";
  assert.equal(visibleText(spoof), "invoice<U+202E>fdp.exe<U+202C> <U+2067>x<U+2069>");
  assert.equal(cleanName(spoof), "invoicefdp.exe x");
  const json = safeJson({ name: spoof });
  assert.equal(json, '{"name":"invoice\\u202efdp.exe\\u202c \\u2067x\\u2069"}');
  assert.equal(JSON.parse(json).name, spoof, "the same string reads back");
  const hebrew = "\u05e9\u05dc\u05d5\u05dd\u200f 2";
  assert.equal(visibleText(hebrew), hebrew);
  assert.equal(cleanName(hebrew), hebrew);
});

Deno.test("adopt stores a clean name; list, list --json and find never print raw escapes", () =>
  inWorldWithoutCmv(async (world) => {
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(folder, { recursive: true });
    const id = crypto.randomUUID();
    save(
      folder,
      finishedSession({ sessionId: id, cwd: world.project, title: HOSTILE, ask: HOSTILE }),
    );
    const adopt = await world.run(["adopt", "--all"]);
    assert.equal(adopt.code, 0, adopt.stderr);
    assert.doesNotMatch(adopt.stdout, RAW_CONTROL);
    assert.equal(world.sessions()[0].desc, "Deploy now done");

    // A row an older version stored raw is shown visibly, never acted on.
    const registry = Deno.readTextFileSync(world.paths.registryFile);
    // And a line that does not parse, which doctor quotes.
    const hostileRegistry = registry.replace("Deploy now done", HOSTILE) + `${HOSTILE}\n`;
    Deno.writeTextFileSync(world.paths.registryFile, hostileRegistry);
    const list = await world.run(["list"]);
    assert.doesNotMatch(list.stdout + list.stderr, RAW_CONTROL);
    assert.match(list.stdout, /Deploy\^\[\]52;c;ZXZpbA==\^G now/);
    const json = await world.run(["list", "--json"]);
    assert.doesNotMatch(json.stdout, RAW_CONTROL);
    assert.equal(JSON.parse(json.stdout).sessions[0].desc, HOSTILE);

    // The sanitizer sits in the output layer, so no command can forget it.
    for (
      const args of [
        ["search", "Deploy"],
        ["doctor"],
        ["recover", "--session", id, "--digest"],
        ["recall", id],
      ]
    ) {
      const run = await world.run(args);
      assert.doesNotMatch(run.stdout + run.stderr, RAW_CONTROL, args.join(" "));
    }
    const find = await world.run(["find", "--no-index", "Deploy"]);
    assert.equal(find.code, 0, find.stderr);
    assert.match(find.stdout, /Deploy/);
    assert.doesNotMatch(find.stdout + find.stderr, RAW_CONTROL);
  }));
