/**
 * The recall benchmark. Generates a transcript in a temporary dir whose
 * files exist (so every write and edit is really verified), then prints, in
 * one run, each pass in its own process so its peak memory is its own:
 * a raw line split and a JSON.parse of every line (recover's baselines,
 * bench/recover_child.ts) next to the recall capsule (strict parse, mining,
 * verification against the files, tagging, rendering), as ratios to the
 * parse pass: recall must parse every line, so that is its floor.
 *
 * Targets: recall <= 2x the parse-every-line pass, peak RSS <= 256 MiB.
 *
 * Usage: deno run -A bench/recall.ts [--size 100MB] [--keep]
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chooseNextMove } from "../lib/app/recall/next_move.ts";
import { renderCapsule } from "../lib/app/recall/render.ts";
import { tagRecords } from "../lib/app/recall/tag.ts";
import { verifyRecords } from "../lib/app/recall/verify.ts";
import { resolveRealPath } from "../lib/core/project_key.ts";
import { mineWork } from "../lib/transcript/work_records.ts";
import { generateTranscript, parseSize } from "../scripts/gen_transcript.ts";
import { peakRssMiB, rssMiB, runChild } from "./measure.ts";

const SELF = fileURLToPath(import.meta.url);
const RECOVER_CHILD = fileURLToPath(new URL("./recover_child.ts", import.meta.url));
const ITERATIONS = 3;

interface ChildResult {
  ms: number[];
  peakRssMiB: number;
  exact: boolean;
}

function child(script: string, args: string[]): Promise<ChildResult> {
  return runChild(script, args);
}

/** The capsule of the transcript at `path`, as `recall` builds it after finding it. */
function capsuleSize(path: string): number {
  const mined = mineWork(path);
  const verifications = verifyRecords(mined.records, { repo: { missing: "benchmark" } });
  const tagged = tagRecords(mined.records, { verifications, truncated: mined.truncated });
  return renderCapsule({
    sessionId: "bench",
    source: { path, how: "transcript-path" },
    branch: {},
    truncated: mined.truncated,
    live: false,
    records: tagged,
    total: tagged.length,
    nextMove: chooseNextMove(tagged, { all: tagged, lastAsk: mined.lastAsk }),
    divergences: tagged.filter((t) => t.status === "diverged")
      .map((t) => ({ tagged: t, inScope: true })),
  }).length;
}

function capsuleChild(path: string, iterations: number): void {
  const ms: number[] = [];
  let sampled = 0;
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    capsuleSize(path);
    ms.push(performance.now() - started);
    sampled = Math.max(sampled, rssMiB());
  }
  const { peak, exact } = peakRssMiB(sampled);
  console.log(JSON.stringify({ ms, peakRssMiB: peak, exact }));
}

/** Create the files the generated session wrote and edited, so verification reads them. */
function materialise(path: string): number {
  let created = 0;
  for (const record of mineWork(path).records) {
    for (const file of record.paths) {
      if (record.kind !== "write" && record.kind !== "edit") continue;
      Deno.mkdirSync(join(file, ".."), { recursive: true });
      Deno.writeTextFileSync(file, "generated\n");
      created++;
    }
  }
  return created;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      size: { type: "string", default: "100MB" },
      keep: { type: "boolean", default: false },
    },
  });
  const temp = Deno.makeTempDirSync({ prefix: "claudecm-bench-recall-" });
  try {
    const cwd = resolveRealPath(join(temp, "project"));
    Deno.mkdirSync(cwd, { recursive: true });
    const transcript = join(temp, `${crypto.randomUUID()}.jsonl`);
    generateTranscript(transcript, { bytes: parseSize(values.size), cwd, crashed: true });
    const mb = Deno.statSync(transcript).size / 1e6;
    const files = materialise(transcript);
    console.log(`generated ${mb.toFixed(1)} MB transcript; ${files} file changes to verify`);
    const rows: [string, ChildResult][] = [
      ["raw line split", await child(RECOVER_CHILD, ["raw", transcript, String(ITERATIONS)])],
      [
        "JSON.parse every line",
        await child(RECOVER_CHILD, ["parse", transcript, String(ITERATIONS)]),
      ],
      ["recall capsule", await child(SELF, ["--child", transcript, String(ITERATIONS)])],
    ];
    const best = (r: ChildResult) => Math.min(...r.ms);
    const parseBest = best(rows[1][1]);
    console.log(
      `\nRecall of a ${mb.toFixed(1)} MB transcript (best of ${ITERATIONS}, own process each)`,
    );
    console.log("  pass                 time      MB/s   x parse time   peak RSS");
    for (const [name, r] of rows) {
      console.log(
        `  ${name.padEnd(21)}${best(r).toFixed(0).padStart(6)} ms` +
          `${(mb / (best(r) / 1000)).toFixed(0).padStart(8)}` +
          `${(best(r) / parseBest).toFixed(2).padStart(13)}x` +
          `${r.peakRssMiB.toFixed(0).padStart(8)} MiB${r.exact ? "" : " (approx)"}`,
      );
    }
  } finally {
    if (values.keep) console.log(`kept ${temp}`);
    else Deno.removeSync(temp, { recursive: true });
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") capsuleChild(Deno.args[1], Number(Deno.args[2]));
  else await main();
}
