/**
 * The tree benchmark. Generates a history of a few hundred MB in a temporary
 * HOME (scripts/gen_transcript.ts sessions; every fifth a `/branch` copy of
 * the one before, its copied lines stamped with `forkedFrom`; some with a
 * `continued-in` line, some with a subagent whose `fork-context-ref` points
 * at another session), then times `tree --json` (`runTree`, in this process,
 * its output kept in memory) three ways: cold (no lineage cache), again with
 * nothing changed, and again after appends to a few transcripts (one of them
 * going on copying a `/branch` source), beside the records read with no cache
 * at all, as tree read them before. Each round's output is compared with
 * a cold run's: a cached tree that differs fails the benchmark. The fastest
 * round of each is reported, and each warm case as a ratio to the cold one.
 *
 * Usage: deno run -A bench/tree.ts [--total 300MB] [--sessions 120] [--rounds 3] [--keep]
 *
 * @module
 */

import { join } from "node:path";
import { parseArgs } from "node:util";
import { runTree } from "../lib/app/tree/tree.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { findSessionTranscripts } from "../lib/app/session/session_transcripts.ts";
import { lineageCachePath } from "../lib/store/lineage_cache.ts";
import { sessionLineageRecords } from "../lib/transcript/lineage.ts";
import { generateTranscript, parseSize } from "../scripts/gen_transcript.ts";
import { createTestContext, type TestContext } from "../tests/helpers/test_context.ts";

const id = (i: number) => `7eee0000-0000-4000-8000-${String(i).padStart(12, "0")}`;

/** `source`'s lines as `/branch` copies them into session `self`: each stamped with where it came from. */
function branchCopy(source: string, sourceId: string, self: string, target: string): void {
  const lines = Deno.readTextFileSync(source).split("\n").filter((line) => line !== "");
  const stamped = lines.map((line, i) =>
    `{"forkedFrom":{"sessionId":"${sourceId}","messageUuid":"m${i}"},"sessionId":"${self}",` +
    line.slice(1)
  );
  Deno.writeTextFileSync(target, `${stamped.join("\n")}\n`);
}

/** Write the history; returns the transcripts the appends go to. */
function generate(test: TestContext, total: number, sessions: number): string[] {
  const folder = projectDirFor(test.ctx.paths, join(test.home, "project"));
  Deno.mkdirSync(folder, { recursive: true });
  const each = Math.round(total / sessions);
  const paths: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const path = join(folder, `${id(i)}.jsonl`);
    paths.push(path);
    if (i % 5 === 4) branchCopy(paths[i - 1], id(i - 1), id(i), path);
    else generateTranscript(path, { bytes: each, seed: i + 1, sessionId: id(i) });
    if (i % 7 === 3) {
      const line = { type: "continued-in", sessionId: id(i), continuedInSessionId: id(i + 1) };
      Deno.writeTextFileSync(path, `${JSON.stringify(line)}\n`, { append: true });
    }
    if (i % 4 === 1) {
      const agents = join(folder, id(i), "subagents");
      Deno.mkdirSync(agents, { recursive: true });
      generateTranscript(join(agents, "agent-a1.jsonl"), { bytes: each / 10, seed: 9000 + i });
      const ref = { type: "fork-context-ref", agentId: "a1", parentSessionId: id(i - 1) };
      Deno.writeTextFileSync(join(agents, "agent-a1.jsonl"), `${JSON.stringify(ref)}\n`, {
        append: true,
      });
    }
  }
  // The appends: a plain session, a /branch copy going on copying, one that goes on elsewhere.
  return [paths[0], paths[4], paths[Math.min(6, sessions - 1)]];
}

/** One `tree --json`: its time and what it printed. */
function treeRun(test: TestContext): { ms: number; out: string } {
  const before = test.stdout().length;
  const started = performance.now();
  runTree(test.ctx, { json: true });
  return { ms: performance.now() - started, out: test.stdout().slice(before) };
}

/** The transcripts' records read with no cache at all, as tree read them before it kept one. */
function uncachedRead(test: TestContext): number {
  const started = performance.now();
  for (const { path } of findSessionTranscripts(test.ctx).values()) sessionLineageRecords(path);
  return performance.now() - started;
}

/** A run with no cache: what every cached run must print. */
function coldRun(test: TestContext): { ms: number; out: string } {
  Deno.removeSync(lineageCachePath(test.ctx.paths));
  return treeRun(test);
}

function main(): void {
  const args = parseArgs({
    args: Deno.args,
    options: {
      total: { type: "string", default: "300MB" },
      sessions: { type: "string", default: "120" },
      rounds: { type: "string", default: "3" },
      keep: { type: "boolean", default: false },
    },
  });
  const test = createTestContext();
  try {
    const started = performance.now();
    const appended = generate(test, parseSize(args.values.total!), Number(args.values.sessions));
    const generatedMs = performance.now() - started;
    const rounds = Number(args.values.rounds);
    const cold: number[] = [];
    const unchanged: number[] = [];
    const grown: number[] = [];
    const reader: number[] = [];
    const same = (what: string, run: { out: string }, expected: string) => {
      if (run.out !== expected) {
        throw new Error(`${what}: the cached tree differs from a full read`);
      }
    };
    treeRun(test); // Compiles the reader and fills the cache once, as an earlier run would.
    for (let round = 0; round < rounds; round++) {
      reader.push(uncachedRead(test));
      const full = coldRun(test);
      cold.push(full.ms);
      const again = treeRun(test);
      same("unchanged", again, full.out);
      unchanged.push(again.ms);
      appendTo(appended, round);
      const after = treeRun(test);
      grown.push(after.ms);
      same("appended", after, coldRun(test).out);
    }
    const best = (values: number[]) => Math.min(...values);
    const size = historyBytes(test);
    console.log(
      `tree --json over ${(size / 1e6).toFixed(0)} MB of ${args.values.sessions} sessions ` +
        `(generated in ${(generatedMs / 1000).toFixed(1)} s)`,
    );
    console.log(
      `  cold (no cache): ${best(cold).toFixed(0)} ms ` +
        `(the records read with no cache at all: ${best(reader).toFixed(0)} ms)`,
    );
    console.log(
      `  again, nothing changed: ${best(unchanged).toFixed(0)} ms, ` +
        `ratio ${(best(unchanged) / best(cold)).toFixed(3)}`,
    );
    console.log(
      `  again, ${appended.length} transcripts appended to: ${best(grown).toFixed(0)} ms, ` +
        `ratio ${(best(grown) / best(cold)).toFixed(3)}`,
    );
    console.log(
      `  cache ${(Deno.statSync(lineageCachePath(test.ctx.paths)).size / 1024).toFixed(0)} KiB; ` +
        "every cached tree equal to a full read's",
    );
  } finally {
    if (args.values.keep) console.log(`kept ${test.home}`);
    else test.cleanup();
  }
}

/** A few KiB of new lines on each of `paths`; the /branch copy's go on copying its source. */
function appendTo(paths: string[], round: number): void {
  for (const [i, path] of paths.entries()) {
    const copying = i === 1;
    const lines = Array.from({ length: 40 }, (_, n) =>
      JSON.stringify({
        type: "user",
        uuid: `r${round}-${n}`,
        ...(copying ? { forkedFrom: { sessionId: id(3), messageUuid: `x${round}-${n}` } } : {}),
        message: { role: "user", content: `more ${"z".repeat(200)}` },
      }));
    if (i === 2) {
      lines.push(JSON.stringify({ type: "continued-in", continuedInSessionId: id(round) }));
    }
    Deno.writeTextFileSync(path, `${lines.join("\n")}\n`, { append: true });
  }
}

/** Every transcript byte under the projects folder. */
function historyBytes(test: TestContext): number {
  const walk = (dir: string): number =>
    [...Deno.readDirSync(dir)].reduce(
      (sum, entry) =>
        sum +
        (entry.isDirectory
          ? walk(join(dir, entry.name))
          : Deno.statSync(join(dir, entry.name)).size),
      0,
    );
  return walk(test.ctx.paths.projectsDir);
}

main();
