/**
 * `claudecm recover --session ID --digest` against the reference streaming
 * Python extractor (bench/reference_digest.py), on the same synthetic 100 MB
 * transcript (scripts/gen_transcript.ts). Both run as real subprocesses,
 * alternately: claudecm as a user starts it (`deno run --allow-all --quiet
 * main.ts`, start-up included), the reference as `python3
 * bench/reference_digest.py FILE`. Each run is timed, and its peak resident
 * memory read, by a few lines of Python around it (the finished child's
 * ru_maxrss; none on Windows), so both are measured the same way.
 *
 * Prints each side's fastest and median time and least CPU time, the ratio
 * claudecm/python against the issue 7 target of at most 0.5x (the verdict
 * uses the fastest runs: other load only ever adds time; the CPU-time ratio,
 * printed too, moves less on a busy machine), and both peak RSS figures
 * against the target of claudecm under 128 MiB. Without python3 it says so and exits 0.
 *
 * Usage: deno run -A bench/digest_reference.ts [--total 100MB] [--runs 7] [--keep]
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { claudecmEnv, median } from "./measure.ts";
import { projectDirFor, resolvePaths } from "../lib/core/paths.ts";
import { resolveRealPath } from "../lib/core/project_key.ts";
import { generateTranscript, parseSize } from "../scripts/gen_transcript.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const REFERENCE = fileURLToPath(new URL("./reference_digest.py", import.meta.url));
const SESSION = "5d0c1e2f-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
const RSS_TARGET_MIB = 128;
const RATIO_TARGET = 0.5;

/**
 * Runs argv[1:] with stdout kept, and prints one JSON line on stderr: wall
 * time, the child's CPU time (user + system) and its own peak RSS (ru_maxrss
 * is KiB on Linux, bytes on macOS).
 */
const TIMER = `
import json, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
out, err = child.communicate()
ms = (time.perf_counter() - started) * 1000
try:
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = usage.ru_maxrss / 1048576 if sys.platform == "darwin" else usage.ru_maxrss / 1024
    cpu = (usage.ru_utime + usage.ru_stime) * 1000
except ImportError:
    peak = cpu = None
sys.stdout.buffer.write(out)
sys.stderr.write(json.dumps({"ms": ms, "cpuMs": cpu, "peakMiB": peak, "code": child.returncode, "err": err.decode(errors="replace")}))
`;

interface Side {
  label: string;
  argv: string[];
  ms: number[];
  cpuMs: number[];
  peakMiB: number | null;
}

interface Timed {
  ms: number;
  cpuMs: number | null;
  peakMiB: number | null;
  code: number;
  err: string;
  stdout: string;
}

async function timed(python: string, argv: string[], env: Record<string, string>, cwd: string) {
  const output = await new Deno.Command(python, {
    args: ["-c", TIMER, ...argv],
    env,
    clearEnv: true,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`the timing wrapper failed: ${stderr}`);
  const result: Timed = { ...JSON.parse(stderr), stdout: new TextDecoder().decode(output.stdout) };
  if (result.code !== 0) throw new Error(`${argv.join(" ")} exited ${result.code}: ${result.err}`);
  return result;
}

/** The python3 to run, or undefined when there is none. */
async function findPython(): Promise<string | undefined> {
  for (const name of ["python3", "python"]) {
    try {
      const output = await new Deno.Command(name, { args: ["--version"] }).output();
      const version = new TextDecoder().decode(output.stdout);
      if (output.success && /^Python 3\./.test(version)) return name;
    } catch {
      // Not installed under this name.
    }
  }
  return undefined;
}

function ms(value: number): string {
  return `${value.toFixed(0).padStart(6)} ms`;
}

function mib(value: number | null): string {
  return value === null ? "   n/a" : `${value.toFixed(0).padStart(4)} MiB`;
}

/** The section headings of a digest, to check both sides describe the same state. */
function headings(text: string): string[] {
  return text.split("\n").filter((line) => line.startsWith("#"));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      total: { type: "string", default: "100MB" },
      runs: { type: "string", default: "7" },
      keep: { type: "boolean", default: false },
    },
  });
  const python = await findPython();
  if (python === undefined) {
    console.log("digest vs reference Python extractor: skipped (no python3 on PATH)");
    return;
  }
  const runs = Number(values.runs);
  const home = Deno.makeTempDirSync({ prefix: "claudecm-bench-digest-" });
  try {
    const env = claudecmEnv(home);
    const cwd = resolveRealPath(join(home, "project"));
    Deno.mkdirSync(cwd, { recursive: true });
    const dir = projectDirFor(resolvePaths((name) => env[name], Deno.build.os), cwd);
    Deno.mkdirSync(dir, { recursive: true });
    const transcript = join(dir, `${SESSION}.jsonl`);
    const started = performance.now();
    generateTranscript(transcript, {
      bytes: parseSize(values.total),
      cwd,
      sessionId: SESSION,
      crashed: true,
    });
    const mb = Deno.statSync(transcript).size / 1e6;
    console.log(
      `generated a ${mb.toFixed(1)} MB transcript in ${
        (performance.now() - started).toFixed(0)
      } ms`,
    );

    const sides: Side[] = [
      {
        label: "reference: python3 reference_digest.py",
        argv: [python, REFERENCE, transcript],
        ms: [],
        cpuMs: [],
        peakMiB: null,
      },
      {
        label: "claudecm recover --session ID --digest",
        argv: [
          Deno.execPath(),
          "run",
          "--allow-all",
          "--quiet",
          MAIN,
          "recover",
          "--session",
          SESSION,
          "--digest",
        ],
        ms: [],
        cpuMs: [],
        peakMiB: null,
      },
    ];
    // The warm-up run fills the page cache and DENO_DIR, and shows both read the same state.
    const warm = [];
    for (const side of sides) warm.push(await timed(python, side.argv, env, cwd));
    if (headings(warm[0].stdout).join("|") !== headings(warm[1].stdout).join("|")) {
      console.log("warning: the two digests do not have the same sections");
    }
    for (let i = 0; i < runs; i++) {
      for (const side of sides) {
        const run = await timed(python, side.argv, env, cwd);
        side.ms.push(run.ms);
        if (run.cpuMs !== null) side.cpuMs.push(run.cpuMs);
        if (run.peakMiB !== null) side.peakMiB = Math.max(side.peakMiB ?? 0, run.peakMiB);
      }
    }

    console.log(`\nDigest of a ${mb.toFixed(1)} MB transcript, ${runs} alternating runs each`);
    console.log(`${"".padEnd(40)}  fastest    median   least CPU   peak RSS`);
    for (const side of sides) {
      const cpu = side.cpuMs.length > 0 ? ms(Math.min(...side.cpuMs)) : "      n/a";
      console.log(
        `${side.label.padEnd(40)} ${ms(Math.min(...side.ms))} ${ms(median(side.ms))}  ${cpu}  ${
          mib(side.peakMiB)
        }`,
      );
    }
    const [ref, ours] = sides;
    const ratio = Math.min(...ours.ms) / Math.min(...ref.ms);
    const medianRatio = median(ours.ms) / median(ref.ms);
    console.log("\nTargets");
    console.log(
      `  claudecm/python <= ${RATIO_TARGET}x (fastest): ${ratio.toFixed(2)}x ${
        ratio <= RATIO_TARGET ? "met" : "NOT MET"
      } (median ${medianRatio.toFixed(2)}x)`,
    );
    if (ours.cpuMs.length > 0 && ref.cpuMs.length > 0) {
      const cpuRatio = Math.min(...ours.cpuMs) / Math.min(...ref.cpuMs);
      console.log(
        `  (CPU time, steadier on a busy machine; deno's GC and compiler threads count: ${
          cpuRatio.toFixed(2)
        }x)`,
      );
    }
    const peak = ours.peakMiB;
    console.log(
      `  claudecm digest peak RSS < ${RSS_TARGET_MIB} MiB: ${
        peak === null
          ? "not measured on this OS"
          : `${peak.toFixed(0)} MiB ${peak < RSS_TARGET_MIB ? "met" : "NOT MET"}`
      } (python ${mib(ref.peakMiB).trim()})`,
    );
    if (values.keep) console.log(`\nkept ${home}`);
  } finally {
    if (!values.keep) Deno.removeSync(home, { recursive: true });
  }
}

if (import.meta.main) await main();
