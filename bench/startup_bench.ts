/**
 * Start-up against the runtime's floor. Runs, alternately in one process and
 * as real subprocesses started the same way (`deno run --allow-all --quiet`,
 * same environment and DENO_DIR):
 *
 * - the floor: bench/floor.ts, a one-line Deno script;
 * - for reference, the floor plus only the file system work list --json
 *   cannot skip (bench/floor_list_io.ts): what is above it is claudecm's code;
 * - `claudecm --version`, with no claude to ask its version;
 * - `claudecm list --json` over 1,000 registered sessions (nine in ten with
 *   a transcript);
 * - plain `claudecm list` (its bootstrap writes: backups, settings, and the
 *   vault's sync of every registered session) with the vault off and on; the
 *   ratio of the two is the vault's bootstrap cost (issue 20).
 *
 * Prints each case's fastest run and median, and their ratios to the
 * floor's. The verdict uses the fastest runs: other load on the machine only
 * ever adds time, so the minimum is the steadiest estimate of the start-up
 * cost itself (medians swing by tens of percent on a busy machine).
 * Targets: --version at most 1.2x the floor, list --json at most 2.0x. Run
 * with `npm run bench` (or `deno run -A bench/startup_bench.ts [--runs N]`).
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { claudecmEnv, median } from "./measure.ts";
import { resolvePaths } from "../lib/core/paths.ts";
import { sessionId, writeRegistryText, writeTranscript } from "../tests/helpers/claude_home.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const FLOOR = fileURLToPath(new URL("./floor.ts", import.meta.url));
const FLOOR_LIST_IO = fileURLToPath(new URL("./floor_list_io.ts", import.meta.url));
const SESSIONS = 1_000;
const PROJECTS = 100;

interface Case {
  label: string;
  script: string;
  args: string[];
  /** Highest acceptable ratio to the floor; none for the floor itself. */
  target?: number;
  /** More environment for this case. */
  env?: Record<string, string>;
}

const CASES: Case[] = [
  { label: "floor: one-line Deno script", script: FLOOR, args: [] },
  { label: "(reference) floor + list's file I/O", script: FLOOR_LIST_IO, args: [] },
  // claude's own start, when one is found for the second line, is not claudecm's.
  {
    label: "claudecm --version (no claude)",
    script: MAIN,
    args: ["--version"],
    target: 1.2,
    env: { CLAUDECM_CLAUDE: "no-claude-here" },
  },
  {
    label: `claudecm list --json, ${SESSIONS} sessions`,
    script: MAIN,
    args: ["list", "--json"],
    target: 2.0,
  },
  // A Tab press: at most twice --version's start (issue 33.5), printed below as that ratio.
  {
    label: `claudecm __complete sessions, ${SESSIONS}`,
    script: MAIN,
    args: ["__complete", "sessions"],
  },
  {
    label: `claudecm list, vault off`,
    script: MAIN,
    args: ["list"],
    env: { CLAUDECM_VAULT: "off" },
  },
  { label: `claudecm list, vault on`, script: MAIN, args: ["list"] },
];

/** Register 1,000 sessions under `home`, nine in ten with a transcript. */
export function seedRegistry(env: Record<string, string>, home: string): void {
  const paths = resolvePaths((name) => env[name], Deno.build.os);
  const lines: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const dir = join(home, "projects", `project-${i % PROJECTS}`);
    Deno.mkdirSync(dir, { recursive: true });
    // Nine in ten transcripts exist; the rest take the missing-file fallback path.
    if (i % 10 !== 0) writeTranscript(paths, dir, sessionId(i + 1));
    lines.push(`${sessionId(i + 1)}|${dir}|Session number ${i}|${i * 1000}`);
  }
  writeRegistryText(paths, lines.join("\n") + "\n");
}

async function timeRun(run: Case, env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", run.script, ...run.args],
    env: { ...env, ...run.env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - started;
  if (output.code !== 0) throw new Error(new TextDecoder().decode(output.stderr));
  return elapsed;
}

function ms(value: number): string {
  return `${value.toFixed(1).padStart(6)} ms`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ args: Deno.args, options: { runs: { type: "string" } } });
  const runs = Number(values.runs ?? 31);
  const home = Deno.makeTempDirSync({ prefix: "claudecm-bench-" });
  const env = claudecmEnv(home);
  try {
    seedRegistry(env, home);
    const times = CASES.map(() => [] as number[]);
    // One warm-up each (fills DENO_DIR's transpile cache), then alternate.
    for (const run of CASES) await timeRun(run, env);
    for (let i = 0; i < runs; i++) {
      for (const [at, run] of CASES.entries()) times[at].push(await timeRun(run, env));
    }
    const floorMin = Math.min(...times[0]);
    const floorMedian = median(times[0]);
    console.log(`start-up over ${runs} alternating runs each (deno run --allow-all --quiet)`);
    console.log(`${"".padEnd(40)}  fastest  (ratio)   median  (ratio)`);
    for (const [at, run] of CASES.entries()) {
      const fastest = Math.min(...times[at]);
      const middle = median(times[at]);
      const ratio = fastest / floorMin;
      const verdict = run.target === undefined
        ? ""
        : `  target <= ${run.target}x: ${ratio <= run.target ? "met" : "NOT MET"}`;
      console.log(
        `${run.label.padEnd(40)} ${ms(fastest)} (${ratio.toFixed(2)}x) ${ms(middle)} ` +
          `(${(middle / floorMedian).toFixed(2)}x)${verdict}`,
      );
    }
    const version = CASES.findIndex((run) => run.args[0] === "--version");
    const complete = CASES.findIndex((run) => run.args[0] === "__complete");
    const tab = Math.min(...times[complete]) / Math.min(...times[version]);
    console.log(
      `completion entry point / --version: ${tab.toFixed(2)}x fastest, ` +
        `${(median(times[complete]) / median(times[version])).toFixed(2)}x median` +
        `  target <= 2x: ${tab <= 2 ? "met" : "NOT MET"}`,
    );
    const off = CASES.findIndex((run) => run.env?.CLAUDECM_VAULT === "off");
    const on = off + 1;
    console.log(
      `vault's bootstrap cost, list with it on / off: ` +
        `${(Math.min(...times[on]) / Math.min(...times[off])).toFixed(2)}x fastest, ` +
        `${(median(times[on]) / median(times[off])).toFixed(2)}x median`,
    );
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

if (import.meta.main) await main();
