/**
 * Compiled start-up, measured where it can be: on each release runner, the
 * release binary's `--version`, `--help` and `list --json` (in the fixture
 * home) against a compiled one-line program (bench/floor.ts, built by
 * `deno compile` on the same runner), alternating, after one warm-up each.
 * Prints each case's fastest and median run and their ratios to the floor's,
 * and with `--out FILE` writes them as JSON (the release workflow uploads
 * it as an artifact). The fastest run is the steadiest estimate: other load
 * only ever adds time (as bench/startup_bench.ts reasons).
 *
 * Usage: deno run -A scripts/release/startup.ts --bin PATH --floor PATH
 *          [--runs N] [--out FILE] [--label NAME]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { resolve } from "../../lib/core/path.ts";
import { createFixtureHome } from "./fixture_home.ts";
import { runBinary } from "./run_binary.ts";

/** One measured case. */
export interface StartupCase {
  label: string;
  args: string[];
  fastestMs: number;
  medianMs: number;
  /** Ratios to the floor's fastest and median runs (1 for the floor itself). */
  fastestRatio: number;
  medianRatio: number;
}

/** What `--out` holds. */
export interface StartupReport {
  label: string;
  os: string;
  arch: string;
  runs: number;
  cases: StartupCase[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Time `bin`'s start-up cases against `floor`, `runs` alternating runs each. */
export async function measureStartup(
  { bin, floor, runs, label }: { bin: string; floor: string; runs: number; label: string },
): Promise<StartupReport> {
  const world = createFixtureHome();
  try {
    const cases = [
      { label: "floor: compiled one-line program", program: floor, args: [] as string[] },
      { label: "claudecm --version", program: bin, args: ["--version"] },
      { label: "claudecm --help", program: bin, args: ["--help"] },
      { label: "claudecm list --json (2 sessions)", program: bin, args: ["list", "--json"] },
    ];
    const times = cases.map(() => [] as number[]);
    for (let round = 0; round <= runs; round++) {
      for (const [at, run] of cases.entries()) {
        const result = await runBinary(run.program, run.args, {
          env: world.env,
          cwd: world.project,
        });
        if (result.code !== 0) {
          throw new Error(`${run.label} exited ${result.code}: ${result.stderr.trim()}`);
        }
        // Round 0 warms up (the OS's file cache, a first-run code cache).
        if (round > 0) times[at].push(result.ms);
      }
    }
    const floorFastest = Math.min(...times[0]);
    const floorMedian = median(times[0]);
    return {
      label,
      os: Deno.build.os,
      arch: Deno.build.arch,
      runs,
      cases: cases.map((run, at) => {
        const fastestMs = Math.min(...times[at]);
        const medianMs = median(times[at]);
        return {
          label: run.label,
          args: run.args,
          fastestMs: Math.round(fastestMs * 10) / 10,
          medianMs: Math.round(medianMs * 10) / 10,
          fastestRatio: Math.round((fastestMs / floorFastest) * 100) / 100,
          medianRatio: Math.round((medianMs / floorMedian) * 100) / 100,
        };
      }),
    };
  } finally {
    world.cleanup();
  }
}

/** The report as a table. */
export function formatReport(report: StartupReport): string {
  const lines = [
    `compiled start-up of ${report.label} on ${report.os} ${report.arch}, ` +
    `${report.runs} alternating runs each`,
    `${"".padEnd(36)}  fastest (ratio)    median (ratio)`,
  ];
  for (const c of report.cases) {
    lines.push(
      `${c.label.padEnd(36)} ${c.fastestMs.toFixed(1).padStart(7)} ms (${
        c.fastestRatio.toFixed(2)
      }x) ${c.medianMs.toFixed(1).padStart(7)} ms (${c.medianRatio.toFixed(2)}x)`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      bin: { type: "string" },
      floor: { type: "string" },
      runs: { type: "string" },
      out: { type: "string" },
      label: { type: "string" },
    },
  });
  const runs = Number(values.runs ?? 21);
  if (values.bin === undefined || values.floor === undefined || !(runs >= 1)) {
    console.error(
      "usage: startup.ts --bin PATH --floor PATH [--runs N] [--out FILE] [--label NAME]",
    );
    Deno.exit(2);
  }
  const bin = resolve(values.bin);
  const report = await measureStartup({
    bin,
    floor: resolve(values.floor),
    runs,
    label: values.label ?? bin,
  });
  console.log(formatReport(report));
  if (values.out !== undefined) Deno.writeTextFileSync(values.out, JSON.stringify(report, null, 2));
}

if (import.meta.main) await main();
