/**
 * One measured task of the recover benchmark, run in its own process so its
 * peak memory is its own: `raw` (the line-split baseline), `scan` (the
 * engine's line split, lines.ts), `parse` (JSON.parse of every line),
 * `digest` (the recover digest), `skeleton` (the refresh skeleton and its
 * filtered transcript, written as `claudecm skeleton` writes them), `rank`
 * (phase 1 for a project dir). Prints one JSON line: per-iteration milliseconds and peak RSS.
 *
 * Usage: deno run -A bench/recover_child.ts MODE PATH ITERATIONS [CLAUDE_ROOT]
 *
 * @module
 */

import { resolvePaths } from "../lib/core/paths.ts";
import { rankCandidates } from "../lib/transcript/candidates.ts";
import { collectDigest } from "../lib/transcript/digest.ts";
import { renderDigest } from "../lib/transcript/digest_render.ts";
import { DEFAULT_BUDGET } from "../lib/app/recover/defaults.ts";
import { CHUNK_BYTES, scanLines } from "../lib/transcript/lines.ts";
import { extractSkeleton } from "../lib/app/skeleton/extract.ts";
import { join } from "node:path";
import { resolveProjectDir } from "../lib/transcript/project_dir.ts";
import { peakRssMiB, rssMiB } from "./measure.ts";

/** The simplest fast line split: reads of the engine's size, newlines found with indexOf. */
function rawSplit(path: string): number {
  const file = Deno.openSync(path);
  const chunk = new Uint8Array(CHUNK_BYTES);
  let lines = 0;
  try {
    while (true) {
      const count = file.readSync(chunk);
      if (count === null || count === 0) break;
      const view = chunk.subarray(0, count);
      for (let at = view.indexOf(10); at !== -1; at = view.indexOf(10, at + 1)) lines++;
    }
  } finally {
    file.close();
  }
  return lines;
}

/** The engine's own line split (lines.ts), which every reader pays before its work. */
function engineSplit(path: string): number {
  return scanLines(path, () => {}).lines;
}

/** What a naive reader does: decode and JSON.parse every line. */
function parseAll(path: string): number {
  const decoder = new TextDecoder();
  let parsed = 0;
  scanLines(path, (line) => {
    if (line.bytes.length > 0) {
      JSON.parse(decoder.decode(line.bytes));
      parsed++;
    }
  });
  return parsed;
}

function digest(path: string): number {
  const id = path.replace(/^.*[\\/]/, "").replace(/\.jsonl$/, "");
  return renderDigest(collectDigest(path, id), DEFAULT_BUDGET).text.length;
}

function skeleton(path: string): number {
  const outDir = Deno.makeTempDirSync({ prefix: "claudecm-bench-skeleton-" });
  try {
    return extractSkeleton(path, "bench", { outDir, desc: "Bench", join }).transcriptBytes;
  } finally {
    Deno.removeSync(outDir, { recursive: true });
  }
}

function rank(cwd: string, claudeRoot: string): number {
  const env = (name: string) =>
    name === "CLAUDE_CONFIG_DIR" ? claudeRoot : name === "HOME" ? claudeRoot : undefined;
  const paths = resolvePaths(env, Deno.build.os);
  const found = resolveProjectDir(paths, cwd, { os: Deno.build.os });
  if (!found) throw new Error("benchmark project dir not found");
  return rankCandidates(found.dir, { exclude: new Set(), now: new Date() }).candidates.length;
}

const [mode, target, iterationsText, claudeRoot] = Deno.args;
const tasks: Record<string, () => number> = {
  raw: () => rawSplit(target),
  scan: () => engineSplit(target),
  parse: () => parseAll(target),
  digest: () => digest(target),
  skeleton: () => skeleton(target),
  rank: () => rank(target, claudeRoot),
};
const task = tasks[mode];
if (!task) throw new Error(`unknown mode ${mode}`);
const ms: number[] = [];
let sampled = 0;
let result = 0;
for (let i = 0; i < Number(iterationsText); i++) {
  const start = performance.now();
  result = task();
  ms.push(performance.now() - start);
  sampled = Math.max(sampled, rssMiB());
}
const rss = peakRssMiB(sampled);
console.log(
  JSON.stringify({
    mode,
    ms,
    result,
    peakRssMiB: rss.peak,
    exact: rss.exact,
  }),
);
