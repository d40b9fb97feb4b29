/**
 * Run claudecm as a subprocess, as a user would, with a temporary HOME and
 * piped stdin. End-to-end tests go through here.
 *
 * @module
 */

import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** Variables a child needs to start at all on some OS; everything else is the test's choice. */
const PASSED_THROUGH = ["PATH", "SystemRoot", "SYSTEMROOT", "TEMP", "TMP", "TMPDIR"];

/** Deno's cache stays outside the test HOME, so a test sees only what claudecm wrote there. */
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(tmpdir(), "claudecm-test-deno-dir");

/** Options for {@linkcode runClaudecm}. */
export interface RunOptions {
  /** Environment for the child; HOME and CLAUDE_CONFIG_DIR must be set by the caller. */
  env: Record<string, string>;
  cwd?: string;
  /** Text piped to stdin (closed after). */
  stdin?: string;
}

/** What the run produced. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `claudecm ...args` to completion. */
export async function runClaudecm(args: string[], options: RunOptions): Promise<RunResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, ...args],
    env: { ...inheritedEnv(), NO_COLOR: "1", ...options.env },
    clearEnv: true,
    cwd: options.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = { DENO_DIR };
  for (const name of PASSED_THROUGH) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}
