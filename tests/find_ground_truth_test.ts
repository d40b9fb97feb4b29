import assert from "node:assert/strict";
import { type FindJson, type FindOptions, runFind } from "../lib/app/find/find.ts";
import { createMemoryOutput } from "../lib/ui/output.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { keyDirOf, makeFolder, save } from "./helpers/projects.ts";
import { createTestContext, type TestContext } from "./helpers/test_context.ts";

// A corpus with planted words and a known answer (issue 19): find must return exactly these sets,
// through the index and without it. The common word sits in thousands of short pieces of the
// busy sessions and once in one long answer of the quiet one, so a ranking that keeps only the
// best N pieces before grouping loses the quiet session.

const SESSIONS = 24;
const RARE = [2, 9, 15, 21];
const PHRASE = [0, 3, 6, 12, 18, 23];
const APART = [1, 4, 7, 13, 19, 22];
const DEEP = [5, 10, 20];
const QUIET = 17;

const FILLER = "grape kiwi mango papaya lemon melon cherry plum peach fig ".repeat(6);

function transcriptOf(i: number, cwd: string): TranscriptBuilder {
  const t = new TranscriptBuilder({ cwd, start: new Date(Date.UTC(2026, 10, 1 + (i % 20))) });
  t.prompt(`session ${i} begins`);
  if (i === QUIET) t.text(`${FILLER}${FILLER} and the plan ${FILLER}`);
  else for (let n = 0; n < 260; n++) t.text(`the step ${n}`);
  if (RARE.includes(i)) t.text("a xylocarpous idea");
  if (PHRASE.includes(i)) t.prompt("look at the amber lighthouse first");
  if (APART.includes(i)) t.text("the amber coat, then a lighthouse far away");
  if (DEEP.includes(i)) {
    const half = "log line without the word\n".repeat(4000);
    t.tool("Bash", { command: "make all" }, `${half}quasarbyte failed here\n${half}`);
  } else {
    t.tool("Bash", { command: "make all" }, "ok\n");
  }
  return t.turnEnd().metadata({ aiTitle: `Session ${i}` });
}

function setup(): { t: TestContext; ids: string[] } {
  const t = createTestContext({ now: new Date("2026-11-30T12:00:00Z"), interactive: false });
  const ids: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const cwd = makeFolder(t.home, `src/p${i % 5}`);
    const builder = transcriptOf(i, cwd);
    save(keyDirOf(t.ctx, cwd), builder);
    ids.push(builder.sessionId);
  }
  return { t, ids };
}

async function ranked(t: TestContext, terms: string[], options: Partial<FindOptions>) {
  const out = createMemoryOutput();
  t.ctx.out = out;
  assert.equal(await runFind(t.ctx, { terms, json: true, limit: 100, ...options }), 0);
  return (JSON.parse(out.text()) as FindJson).results.map((r) => r.sessionId);
}

async function found(t: TestContext, terms: string[], options: Partial<FindOptions>) {
  return (await ranked(t, terms, options)).sort();
}

const pick = (ids: string[], which: number[]) => which.map((i) => ids[i]).sort();

for (const index of [true, false]) {
  Deno.test(`ground truth through ${index ? "the index" : "--no-index"}: exactly the planted sets`, async () => {
    const { t, ids } = setup();
    try {
      assert.deepEqual(await found(t, ["xylocarpous"], { index }), pick(ids, RARE), "rare");
      assert.deepEqual(await found(t, ["amber lighthouse"], { index }), pick(ids, PHRASE));
      assert.deepEqual(
        await found(t, ["amber", "lighthouse"], { index }),
        pick(ids, [...PHRASE, ...APART]),
        "both words, anywhere",
      );
      assert.deepEqual(await found(t, ["quasarbyte"], { index }), [], "tool output is opt-in");
      assert.deepEqual(
        await found(t, ["quasarbyte"], { index, toolOutput: true }),
        pick(ids, DEEP),
        "a word deep inside a 200 KB tool output",
      );
      assert.deepEqual(await found(t, ["the"], { index }), [...ids].sort(), "every session");
      const all = await ranked(t, ["the"], { index });
      const limited = await ranked(t, ["the"], { index, limit: 5 });
      assert.deepEqual(limited, all.slice(0, 5), "--limit cuts the sorted sessions, nothing else");
    } finally {
      t.cleanup();
    }
  });
}
