/**
 * Run claudecm as a subprocess, as a user would, with a temporary HOME and
 * piped stdin. End-to-end tests go through here.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { childBaseEnv, type ChildOutput, collectOutput } from "./child.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** Options for {@linkcode runClaudecm}. */
export interface RunOptions {
  /** Environment for the child; HOME and CLAUDE_CONFIG_DIR must be set by the caller. */
  env: Record<string, string>;
  cwd?: string;
  /** Text piped to stdin (closed after). */
  stdin?: string;
}

/** What the run produced. */
export type RunResult = ChildOutput;

/** Run `claudecm ...args` to completion. */
export function runClaudecm(args: string[], options: RunOptions): Promise<RunResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, ...args],
    env: { ...childBaseEnv(), NO_COLOR: "1", ...options.env },
    clearEnv: true,
    cwd: options.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return collectOutput(child, options.stdin ?? "");
}
