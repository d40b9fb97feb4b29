/**
 * The find benchmark. Generates a synthetic history in a temporary HOME
 * (nothing large is committed): N transcripts over 10 project dirs, TOTAL
 * bytes in all, each ending in a session-specific turn. Then prints, each
 * task in its own process:
 *
 * - the first index build, in MB/s of transcript bytes (target >= 50 MB/s);
 * - queries on the built index, in process (target < 50 ms);
 * - the incremental update after appending 1 MB to one file (target < 100 ms);
 * - `find --no-index` against `grep -rl` over the same tree (target within 2x);
 * - the peak memory of each.
 *
 * Usage: deno run -A bench/find.ts [--files 300] [--total 1GB] [--keep]
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { projectDirFor, resolvePaths } from "../lib/core/paths.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { generateTranscript, parseSize } from "../scripts/gen_transcript.ts";
import { runChild } from "./measure.ts";

const CHILD = fileURLToPath(new URL("./find_child.ts", import.meta.url));
const PROJECTS = 10;
/** Distinct generated bodies; the other files copy them (generation is the slow part). */
const BODIES = 10;

// deno-lint-ignore no-explicit-any
type ChildResult = Record<string, any>;

function child(home: string, mode: string, ...terms: string[]): Promise<ChildResult> {
  return runChild(CHILD, [mode, ...terms], {
    env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude"), CLAUDECM_HOME: "" },
  });
}

/** Wall time and peak memory of `grep -rl TERM` over the projects dir. */
async function grep(
  projectsDir: string,
  term: string,
): Promise<{ ms: number; cpuMs: number; peakMiB: number }> {
  const started = performance.now();
  const output = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%M %U %S", "grep", "-rl", "--include=*.jsonl", term, projectsDir],
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const [kb, user, system] = new TextDecoder().decode(output.stderr).trim().split("\n").at(-1)!
    .split(" ").map(Number);
  return { ms, cpuMs: (user + system) * 1000, peakMiB: kb / 1024 };
}

function buildTree(home: string, files: number, total: number): number {
  const paths = resolvePaths((name) => name === "HOME" ? home : undefined, Deno.build.os);
  const perFile = Math.floor(total / files);
  const bodies: string[] = [];
  for (let i = 0; i < Math.min(BODIES, files); i++) {
    const body = join(home, `body-${i}.jsonl`);
    generateTranscript(body, { bytes: perFile, cwd: `/home/bench/p${i}`, seed: i + 1 });
    bodies.push(body);
  }
  let bytes = 0;
  const epoch = new Date("2026-11-01T08:00:00Z").getTime();
  for (let i = 0; i < files; i++) {
    const cwd = `/home/bench/p${i % PROJECTS}`;
    const dir = projectDirFor(paths, cwd);
    Deno.mkdirSync(dir, { recursive: true });
    const id = crypto.randomUUID();
    const path = join(dir, `${id}.jsonl`);
    Deno.copyFileSync(bodies[i % bodies.length], path);
    const tail = new TranscriptBuilder({ cwd, sessionId: id, start: new Date(epoch + i * 60_000) })
      .prompt(`task number ${i}: the kinkajou${i} report`)
      .tool("Bash", { command: `make target-${i}` }, "done\n".repeat(20))
      .text(`Finished task ${i}.`)
      .turnEnd()
      .metadata({ aiTitle: `Task ${i}`, lastPrompt: `task number ${i}` });
    Deno.writeTextFileSync(path, tail.toString(), { append: true });
    bytes += Deno.statSync(path).size;
  }
  for (const body of bodies) Deno.removeSync(body);
  return bytes;
}

const fmt = (value: number, digits = 0) => value.toFixed(digits);
const verdict = (ok: boolean) => ok ? "PASS" : "FAIL";

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      files: { type: "string", default: "300" },
      total: { type: "string", default: "1GB" },
      keep: { type: "boolean", default: false },
    },
  });
  const home = Deno.makeTempDirSync({ prefix: "claudecm-find-bench-" });
  try {
    const files = Number(values.files);
    const started = performance.now();
    const bytes = buildTree(home, files, parseSize(values.total));
    const mb = bytes / 1e6;
    console.log(
      `generated ${files} transcripts in ${PROJECTS} projects, ${fmt(mb)} MB, ` +
        `in ${fmt((performance.now() - started) / 1000, 1)} s (warm page cache from here on)`,
    );

    const build = await child(home, "build");
    const rate = (build.bytes / 1e6) / (build.ms / 1000);
    const cpuRate = (build.bytes / 1e6) / (build.cpuMs / 1000);
    console.log(
      `\nFirst index build: ${fmt(build.ms / 1000, 1)} s wall, ${fmt(rate, 1)} MB/s ` +
        `(${fmt(cpuRate, 1)} MB/s of CPU time), database ${fmt(build.dbBytes / 1e6)} MB, ` +
        `peak RSS ${fmt(build.peakRssMiB)} MiB`,
    );

    const rare = await child(home, "query", `kinkajou${Math.floor(files / 2)}`);
    const common = await child(home, "query", "migrate", "schema");
    const phrase = await child(home, "query", "task number");
    console.log("Queries on the built index (in process, best of 3):");
    const best = (r: ChildResult) => Math.min(...r.ms);
    for (
      const [name, r] of [["rare word", rare], ["two common words", common], [
        "phrase",
        phrase,
      ]] as const
    ) {
      console.log(
        `  ${name.padEnd(18)}${fmt(best(r), 1).padStart(7)} ms  ` +
          `(${r.hits} pieces ranked, peak RSS ${fmt(r.peakRssMiB)} MiB)`,
      );
    }

    const update = await child(home, "update");
    console.log(
      `Update after appending 1 MB to one file: ${fmt(update.ms)} ms wall, ` +
        `${fmt(update.updateCpuMs)} ms CPU (${fmt(update.bytes / 1e6, 2)} MB read, found: ` +
        `${update.found > 0}, peak RSS ${fmt(update.peakRssMiB)} MiB)`,
    );

    const term = `kinkajou${Math.floor(files / 2)}`;
    const scan = await child(home, "scan", term);
    const grepRun = await grep(join(home, ".claude", "projects"), term);
    const ratio = scan.ms / grepRun.ms;
    const cpuRatio = scan.cpuMs / grepRun.cpuMs;
    console.log(
      `find --no-index ${term}: ${fmt(scan.ms)} ms wall, ${fmt(scan.cpuMs)} ms CPU, ` +
        `peak RSS ${fmt(scan.peakRssMiB)} MiB, ${scan.sessions} session(s)\n` +
        `grep -rl ${term}:        ${fmt(grepRun.ms)} ms wall, ${fmt(grepRun.cpuMs)} ms CPU, ` +
        `peak RSS ${fmt(grepRun.peakMiB)} MiB\n` +
        `ratio: ${fmt(ratio, 2)}x wall, ${fmt(cpuRatio, 2)}x CPU`,
    );

    const load = Deno.loadavg()[0];
    console.log(
      `\nTargets (load average ${fmt(load, 1)} on ${navigator.hardwareConcurrency} CPUs)`,
    );
    console.log(
      `  first build >= 50 MB/s: ${fmt(rate, 1)} MB/s ${verdict(rate >= 50)} ` +
        `(CPU-time rate ${fmt(cpuRate, 1)} MB/s ${verdict(cpuRate >= 50)})`,
    );
    console.log(
      `  query < 50 ms: rare word ${fmt(best(rare), 1)} ms ${verdict(best(rare) < 50)}, ` +
        `phrase ${fmt(best(phrase), 1)} ms ${verdict(best(phrase) < 50)}, ` +
        `two words found in a fifth of all pieces ${fmt(best(common), 1)} ms ` +
        `${verdict(best(common) < 50)} (the generator's vocabulary is ~80 words)`,
    );
    console.log(
      `  update after 1 MB < 100 ms: ${fmt(update.ms)} ms ${verdict(update.ms < 100)} ` +
        `(CPU ${fmt(update.updateCpuMs)} ms ${verdict(update.updateCpuMs < 100)})`,
    );
    console.log(
      `  --no-index within 2x grep -l: ${fmt(ratio, 2)}x ${verdict(ratio <= 2)} ` +
        `(CPU ${fmt(cpuRatio, 2)}x ${verdict(cpuRatio <= 2)})`,
    );
    if (values.keep) console.log(`\nkept ${home}`);
  } finally {
    if (!values.keep) Deno.removeSync(home, { recursive: true });
  }
}

if (import.meta.main) await main();
