/**
 * One measured task of the rescue benchmark, in its own process so its peak
 * memory is its own: `scan` (find the dead sessions under ROOT/projects),
 * `extract` (scan, then extract every dead session) or `idle` (nothing: the
 * runtime's own memory, the baseline for the others). Prints one JSON line:
 * per-iteration milliseconds, the number found, and peak RSS.
 *
 * Usage: deno run -A bench/rescue_child.ts MODE ROOT ITERATIONS
 *
 * @module
 */

import { join } from "node:path";
import { scanDeadSessions } from "../lib/transcript/dead_scan.ts";
import { extractRescue } from "../lib/transcript/rescue_extract.ts";
import { peakRssMiB, rssMiB } from "./measure.ts";

function scan(root: string): number {
  return scanDeadSessions(join(root, "projects"), { now: new Date(), days: 7 }).dead.length;
}

function extract(root: string): number {
  const { dead } = scanDeadSessions(join(root, "projects"), { now: new Date(), days: 7 });
  let deaths = 0;
  for (const session of dead) deaths += extractRescue(session.path).deathCount > 0 ? 1 : 0;
  return deaths;
}

const [mode, root, iterationsText] = Deno.args;
const task = { scan, extract, idle: () => 0 }[mode];
if (!task) throw new Error(`unknown mode ${mode}`);
const ms: number[] = [];
let result = 0;
let sampled = 0;
for (let i = 0; i < Number(iterationsText); i++) {
  const start = performance.now();
  result = task(root);
  ms.push(performance.now() - start);
  sampled = Math.max(sampled, rssMiB());
}
const rss = peakRssMiB(sampled);
console.log(JSON.stringify({ mode, ms, result, peakRssMiB: rss.peak, exact: rss.exact }));
