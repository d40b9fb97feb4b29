/**
 * The cmv adapter (snapshots, trim, token counts). Always by explicit
 * session id: there is no way to pass `--latest` through it (spec 14 rule
 * 1). When cmv is not installed the adapter is "absent" and carries the one
 * notice to show, so snapshot, trim, refresh and token backfill can skip
 * with it (spec 12).
 *
 * ```ts
 * const cmv = await ctx.tools.cmv();
 * if (!cmv.available) ctx.err.line(cmv.notice, "yellow");
 * else {
 *   const bench = await cmv.benchmark(id, { cwd });
 *   const snap = cmv.snapshot(`auto-exit-${stamp}`, id, { cwd }); // runs in the background
 *   const trim = await cmv.trim(id, { cwd });                     // trim.newSessionId
 * }
 * ```
 *
 * @module
 */

import type { OsName } from "../core/paths.ts";
import { canonicalSessionId, isSessionId } from "../core/registry.ts";
import { type CapturedResult, runCaptured, spawnBackground, ToolTimeoutError } from "./spawn.ts";

/** cmv is not installed. */
export interface CmvAbsent {
  available: false;
  /** One line saying what is skipped and how to install cmv. */
  notice: string;
}

/** cmv is installed at `path`. */
export interface CmvAvailable {
  available: true;
  path: string;
  /** `cmv --version`, trimmed; null when it failed; a ToolTimeoutError when it hung. */
  version(options: CmvRunOptions): Promise<string | null>;
  /** `cmv benchmark -s ID --json`, parsed. */
  benchmark(sessionId: string, options: CmvRunOptions): Promise<BenchmarkOutcome>;
  /** `cmv snapshot LABEL -s ID`, started in the background. */
  snapshot(label: string, sessionId: string, options: CmvRunOptions): SnapshotRun;
  /** `cmv trim -s ID --skip-launch`, with the new session id parsed out. */
  trim(sessionId: string, options: CmvRunOptions): Promise<TrimOutcome>;
}

/** The cmv adapter, one way or the other. */
export type CmvAdapter = CmvAvailable | CmvAbsent;

/** Where cmv runs. */
export interface CmvRunOptions {
  /** Where cmv runs; where this process is when undefined. */
  cwd: string | undefined;
  timeoutMs?: number;
}

/** The figures of a benchmark that claudecm uses; `report` is the whole JSON. */
export interface Benchmark {
  preTrimTokens: number;
  /** Can be negative: trimming would cost more than it saves. */
  reductionPercent: number;
  /** Null when trimming never pays back. */
  breakEvenTurns: number | null;
  report: Record<string, unknown>;
}

/** A benchmark, or why there is none. */
export type BenchmarkOutcome =
  | { ok: true; benchmark: Benchmark; run: CapturedResult }
  | { ok: false; run: CapturedResult };

/** A snapshot in progress. */
export interface SnapshotRun {
  pid: number;
  result: Promise<{ run: CapturedResult; activeWarning: boolean }>;
}

/** What a trim did. */
export interface TrimOutcome {
  /** The uuid of the trimmed session; null when cmv printed none (trim failed). */
  newSessionId: string | null;
  /** Every session id cmv printed (two or more mean no trim was taken). */
  namedIds: string[];
  /** cmv's other output lines, colour codes removed, for display. */
  lines: string[];
  run: CapturedResult;
}

/** What the real adapter needs. */
export interface CmvAdapterOptions {
  env: () => Record<string, string>;
  os: OsName;
  /** How long `cmv --version` may take; 30 s by default. */
  versionTimeoutMs?: number;
  /** How long `cmv benchmark` may take; 2 minutes by default. */
  benchmarkTimeoutMs?: number;
}

/** How long `cmv --version` may take. */
const VERSION_TIMEOUT_MS = 30_000;
/** How long `cmv benchmark` may take before it counts as failed (it measures, nothing more). */
const BENCHMARK_TIMEOUT_MS = 120_000;
/** A snapshot holds the end of a session (post-exit waits for it): stopped like a benchmark. */
const SNAPSHOT_TIMEOUT_MS = 120_000;

/** The adapter over the cmv executable at `path`. */
export function createCmvAdapter(path: string, options: CmvAdapterOptions): CmvAvailable {
  const run = (args: string[], runOptions: CmvRunOptions) =>
    runCaptured(path, args, {
      cwd: runOptions.cwd,
      env: options.env(),
      os: options.os,
      timeoutMs: runOptions.timeoutMs,
    });
  return {
    available: true,
    path,
    async version(runOptions) {
      const timeoutMs = runOptions.timeoutMs ?? options.versionTimeoutMs ?? VERSION_TIMEOUT_MS;
      const result = await run(["--version"], { ...runOptions, timeoutMs });
      if (result.timedOut) throw new ToolTimeoutError(`\`${path} --version\``, timeoutMs);
      const text = result.stdout.trim();
      return result.code === 0 && text !== "" ? text : null;
    },
    async benchmark(sessionId, runOptions) {
      // A hung benchmark must not hold the user at a finished session: it is stopped, and failed.
      const timeoutMs = runOptions.timeoutMs ?? options.benchmarkTimeoutMs ?? BENCHMARK_TIMEOUT_MS;
      const args = ["benchmark", "-s", requireId(sessionId), "--json"];
      const result = await run(args, { ...runOptions, timeoutMs });
      const benchmark = result.code === 0 && !result.timedOut
        ? parseBenchmark(result.stdout)
        : null;
      return benchmark === null ? { ok: false, run: result } : { ok: true, benchmark, run: result };
    },
    snapshot(label, sessionId, runOptions) {
      const background = spawnBackground(path, ["snapshot", label, "-s", requireId(sessionId)], {
        cwd: runOptions.cwd,
        env: options.env(),
        os: options.os,
        timeoutMs: runOptions.timeoutMs ?? SNAPSHOT_TIMEOUT_MS,
      });
      const result = background.result.then((captured) => ({
        run: captured,
        activeWarning: /Session appears to be active/.test(captured.stdout + captured.stderr),
      }));
      return { pid: background.pid, result };
    },
    async trim(sessionId, runOptions) {
      const result = await run(["trim", "-s", requireId(sessionId), "--skip-launch"], runOptions);
      return { ...parseTrimOutput(result.stdout), run: result };
    },
  };
}

/** The adapter for a cmv that is not installed. */
export function absentCmv(notice: string): CmvAbsent {
  return { available: false, notice };
}

/** The figures of `cmv benchmark --json` output; null when they are not there. */
export function parseBenchmark(stdout: string): Benchmark | null {
  const start = stdout.indexOf("{");
  if (start < 0) return null;
  let report: unknown;
  try {
    report = JSON.parse(stdout.slice(start));
  } catch {
    return null;
  }
  if (typeof report !== "object" || report === null) return null;
  const record = report as Record<string, unknown>;
  const { preTrimTokens, reductionPercent, breakEvenTurns } = record;
  // Figures that are no amount (negative, 1e999, 1e21) are no benchmark: the tokens go into
  // sessions.txt as digits.
  if (!isAmount(preTrimTokens) || !Number.isFinite(reductionPercent)) return null;
  // A share of the session: over 100% is no reading of it (a negative one is a cost, and kept).
  if ((reductionPercent as number) > 100) return null;
  if (breakEvenTurns !== null && !isAmount(breakEvenTurns)) return null;
  return {
    preTrimTokens,
    reductionPercent: reductionPercent as number,
    breakEvenTurns,
    report: record,
  };
}

/** Whether `value` is a number from 0 to 2^53 - 1 (cmv may give fractions; rows round them). */
function isAmount(value: unknown): value is number {
  return typeof value === "number" && value >= 0 && value <= Number.MAX_SAFE_INTEGER;
}

/** The `Session ID: <uuid>` of trim output (spec 11.13 step 5) and the other lines. */
export function parseTrimOutput(
  stdout: string,
): { newSessionId: string | null; namedIds: string[]; lines: string[] } {
  const lines = stripAnsi(stdout).split(/\r?\n/);
  const ids: string[] = [];
  const rest: string[] = [];
  for (const line of lines) {
    const match = /^\s*Session ID:\s*(\S+)\s*$/.exec(line);
    const id = match && isSessionId(match[1]) ? canonicalSessionId(match[1]) : null;
    if (id !== null && !ids.includes(id)) ids.push(id);
    if (id === null && line.trim() !== "") rest.push(line);
  }
  // Two different ids: which copy is the trim is not known, so neither is taken, and both are
  // shown with cmv's other lines.
  if (ids.length > 1) {
    return {
      newSessionId: null,
      namedIds: ids,
      lines: [...ids.map((id) => `Session ID: ${id}`), ...rest],
    };
  }
  return { newSessionId: ids[0] ?? null, namedIds: ids, lines: rest };
}

function stripAnsi(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
}

/** cmv must always be told which session (spec 14 rules 1 and 4). */
function requireId(sessionId: string): string {
  if (!isSessionId(sessionId)) {
    throw new Error(`internal error: cmv needs a session id, got ${JSON.stringify(sessionId)}`);
  }
  return sessionId;
}
