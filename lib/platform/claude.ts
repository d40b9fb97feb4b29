/**
 * The claude adapter: everything claudecm does with the Claude Code CLI,
 * behind an interface that flows receive through `AppContext.tools`, so a
 * test can hand them the fake claude (fixtures/fake/claude.ts, by pointing
 * CLAUDECM_CLAUDE at fixtures/bin/claude) or a stub.
 *
 * ```ts
 * const claude = await ctx.tools.claude(); // UserError if not installed
 * const features = await claude.features();
 * const child = claude.launch(["--session-id", id, "-n", name], { cwd });
 * // read sessions/<child.pid>.json while it runs ...
 * const code = await child.status;
 * const print = await claude.print([], { cwd, prompt }); // -p --output-format json
 * ```
 *
 * @module
 */

import type { OsName } from "../core/paths.ts";
import { withoutClaudeSession } from "./claude_env.ts";
import { type ClaudeFeatures, detectClaudeFeatures } from "./claude_features.ts";
import {
  type CapturedResult,
  runCaptured,
  type RunningChild,
  spawnInteractive,
  ToolTimeoutError,
} from "./spawn.ts";

/** Options of an interactive launch. */
export interface LaunchOptions {
  cwd: string;
  /** Variables added to (or overriding) the adapter's environment. */
  env?: Record<string, string>;
}

/** Options of a `claude -p` run. */
export interface PrintOptions extends LaunchOptions {
  /** The prompt, sent on stdin (never argv: the Windows command-line limit). */
  prompt: string;
  timeoutMs?: number;
}

/** What `claude -p --output-format json` said. */
export interface PrintResult {
  /** The `session_id` of the result object; null when there was none. */
  sessionId: string | null;
  /** The `result` text; null when there was none. */
  result: string | null;
  /** The run failed: its answer said so, there was none, or claude exited non-zero. */
  isError: boolean;
  /** Its answer itself said `is_error` (its `result` then says why). */
  answerIsError: boolean;
  run: CapturedResult;
}

/**
 * Why a failed `claude -p` run ({@linkcode PrintResult.isError}) failed, as a
 * clause: its answer's own error, else its exit code (an answer that reads as
 * a success, "Done.", says nothing then), else that it gave no answer.
 */
export function printFailure(answer: PrintResult): string {
  const stderr = firstLine(answer.run.stderr);
  if (answer.answerIsError) {
    return firstLine(answer.result ?? "") ?? stderr ?? "claude reported an error";
  }
  if (answer.run.code !== 0) return stderr ?? `claude exited with code ${answer.run.code}`;
  return "claude gave no answer it could read";
}

/** The first line of `text` that says something, for a one-line message; undefined when none. */
function firstLine(text: string): string | undefined {
  return text.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== "");
}

/** Options of {@linkcode ClaudeAdapter.features}. */
export interface FeatureOptions {
  /** Do not write the cache (read-only commands such as doctor). */
  readOnly?: boolean;
}

/** What claudecm does with claude. */
export interface ClaudeAdapter {
  /** The executable. */
  readonly path: string;
  /** Start claude on the terminal; see spawnInteractive. */
  launch(args: string[], options: LaunchOptions): RunningChild;
  /** `claude -p --output-format json [args]`, prompt on stdin, result parsed. */
  print(args: string[], options: PrintOptions): Promise<PrintResult>;
  /** `claude --version`, trimmed; null when it failed; a ToolTimeoutError when it hung. */
  version(): Promise<string | null>;
  /** The options this claude supports, cached per version. */
  features(options?: FeatureOptions): Promise<ClaudeFeatures>;
}

/** What the real adapter needs. */
export interface ClaudeAdapterOptions {
  /** The base environment of every claude run (the process's, in production). */
  env: () => Record<string, string>;
  /** The cwd for `--version`/`--help` probes; this process's when undefined. */
  cwd: () => string | undefined;
  os: OsName;
  /** `~/.claudecm/claude-features.json`. */
  featuresCacheFile: string;
  /** How long a `--version` or `--help` probe may take; 30 s by default. */
  probeTimeoutMs?: number;
}

/** How long a `--version` or `--help` probe may take. */
const PROBE_TIMEOUT_MS = 30_000;

/** The adapter over the claude executable at `path`. */
export function createClaudeAdapter(path: string, options: ClaudeAdapterOptions): ClaudeAdapter {
  // Every claude run (launch, -p, probes) starts outside any Claude Code session.
  const envWith = (extra?: Record<string, string>) =>
    withoutClaudeSession({ ...options.env(), ...extra });
  const probeTimeout = options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
  const probe = async (arg: string) => {
    const run = await runCaptured(path, [arg], {
      cwd: options.cwd(),
      env: envWith(),
      os: options.os,
      timeoutMs: probeTimeout,
    });
    if (run.timedOut) throw new ToolTimeoutError(`\`${path} ${arg}\``, probeTimeout);
    return run;
  };
  let versionAnswer: Promise<string | null> | undefined;
  const adapter: ClaudeAdapter = {
    path,
    launch(args, launch) {
      return spawnInteractive(path, args, {
        cwd: launch.cwd,
        env: envWith(launch.env),
        os: options.os,
      });
    },
    async print(args, print) {
      const run = await runCaptured(path, ["-p", "--output-format", "json", ...args], {
        cwd: print.cwd,
        env: envWith(print.env),
        os: options.os,
        stdin: print.prompt,
        timeoutMs: print.timeoutMs,
      });
      const parsed = parsePrintJson(run.stdout);
      return {
        sessionId: parsed?.sessionId ?? null,
        result: parsed?.result ?? null,
        isError: parsed === null || parsed.isError || run.code !== 0,
        answerIsError: parsed?.isError === true,
        run,
      };
    },
    version() {
      // Asked once per run: doctor and the feature cache both need it.
      versionAnswer ??= probe("--version").then((run) => {
        const text = run.stdout.trim();
        return run.code === 0 && text !== "" ? text : null;
      });
      return versionAnswer;
    },
    features(featureOptions = {}) {
      return detectClaudeFeatures(
        { version: adapter.version, help: async () => (await probe("--help")).stdout },
        featureOptions.readOnly ? null : options.featuresCacheFile,
      );
    },
  };
  return adapter;
}

/**
 * The result object of `--output-format json` output: the last line that
 * parses as a JSON object with `type: "result"` (measured on 2.1.332: one
 * object on one line, `{"type":"result",...,"result":...,"session_id":...}`).
 */
export function parsePrintJson(
  stdout: string,
): { sessionId: string | null; result: string | null; isError: boolean } | null {
  const lines = stdout.split("\n").map((line) => line.trim()).filter((line) =>
    line.startsWith("{")
  );
  for (const line of lines.reverse()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    const record = value as Record<string, unknown>;
    if (record.type !== "result") continue;
    return {
      sessionId: typeof record.session_id === "string" ? record.session_id : null,
      result: typeof record.result === "string" ? record.result : null,
      isError: record.is_error === true,
    };
  }
  return null;
}
