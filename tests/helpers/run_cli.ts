/**
 * Run claudecm as a subprocess, as a user would, with a temporary HOME and
 * piped stdin. End-to-end tests go through here, and only here, so that the
 * same suite runs against `deno run main.ts` (the default) or a compiled
 * binary: set `CLAUDECM_BIN` to the binary's path (CI does, after
 * `npm run compile:host`).
 *
 * @module
 */

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { childBaseEnv, type ChildOutput, collectOutput } from "./child.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MAIN = resolve(ROOT, "main.ts");

/** Options for {@linkcode runClaudecm} and {@linkcode claudecmCommand}. */
export interface RunOptions {
  /** Environment for the child; HOME and CLAUDE_CONFIG_DIR must be set by the caller. */
  env: Record<string, string>;
  cwd?: string;
  /** Text piped to stdin (closed after). */
  stdin?: string;
}

/** What the run produced. */
export type RunResult = ChildOutput;

/**
 * The program and leading arguments that start claudecm: `bin` alone when
 * given (a compiled binary; a relative path is taken from the repository
 * root, as CI passes `dist/claudecm`), else this deno running main.ts.
 */
export function claudecmInvocation(bin: string | undefined): [string, string[]] {
  if (bin) return [resolve(ROOT, bin), []];
  return [Deno.execPath(), ["run", "--allow-all", "--quiet", MAIN]];
}

/**
 * A `claudecm ...args` command with piped stdin and a clean environment
 * (`options.env` over the base child env), for tests that need the running
 * child itself (to signal or race it); others use {@linkcode runClaudecm}.
 * `discardOutput` sends stdout and stderr nowhere: a test that kills
 * claudecm while claude (which inherits them) runs on cannot wait for EOF.
 * `noStdin` gives the child no stdin at all.
 */
export function claudecmCommand(
  args: string[],
  options: RunOptions & { discardOutput?: boolean; noStdin?: boolean },
): Deno.Command {
  const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
  const output = options.discardOutput ? "null" : "piped";
  return new Deno.Command(program, {
    args: [...leading, ...args],
    env: { ...childBaseEnv(), NO_COLOR: "1", ...options.env },
    clearEnv: true,
    cwd: options.cwd,
    stdin: options.noStdin ? "null" : "piped",
    stdout: output,
    stderr: output,
  });
}

/** Run `claudecm ...args` to completion. */
export function runClaudecm(args: string[], options: RunOptions): Promise<RunResult> {
  return collectOutput(claudecmCommand(args, options).spawn(), options.stdin ?? "");
}
