/**
 * What every benchmark measures the same way: a task run in its own process
 * (so its peak memory is its own) that prints one JSON line, and that
 * process's peak resident memory.
 *
 * @module
 */

import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The environment a benchmarked claudecm runs in: only a temporary `home`,
 * PATH, the tests' Deno cache (so the transpile cache is warm) and no colour.
 */
export function claudecmEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    USERPROFILE: home,
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(tmpdir(), "claudecm-test-deno-dir"),
    PATH: Deno.env.get("PATH") ?? "",
    NO_COLOR: "1",
  };
}

/** The middle value of `values` (the upper one of the two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Peak resident memory of this process: the kernel's high-water mark on Linux, else `sampled`. */
export function peakRssMiB(sampled: number): { peak: number; exact: boolean } {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"));
    if (match) return { peak: Number(match[1]) / 1024, exact: true };
  } catch {
    // Not Linux: the largest RSS the caller sampled.
  }
  return { peak: sampled, exact: false };
}

/** The current resident memory in MiB, for {@linkcode peakRssMiB}'s fallback. */
export function rssMiB(): number {
  return Deno.memoryUsage().rss / 1048576;
}

/** Options for {@linkcode runChild}. */
export interface ChildOptions {
  /** The child's environment, added to this process's. */
  env?: Record<string, string>;
}

/** Run `deno run -A script ...args` and parse the JSON line it prints. */
export async function runChild<T>(
  script: string,
  args: string[],
  options: ChildOptions = {},
): Promise<T> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", script, ...args],
    env: options.env,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`benchmark child ${script} ${args[0] ?? ""} failed`);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}
