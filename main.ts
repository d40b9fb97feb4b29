/**
 * claudecm entry point: run the CLI with Deno.args and turn errors into a
 * one-line message and an exit code, never a stack trace. I/O failures the
 * environment causes (permissions, a full or read-only disk, a folder where a
 * file belongs) are user errors naming the path; only the rest is "internal".
 *
 * claudecm starts many times a day, so this file imports only what has no
 * dependencies: `--version` answers from here, and the command tree and the
 * process context load only for a command (each command then loads its own
 * flow, see lib/cli/program.ts).
 *
 * @module
 */

import { environmentUserError, ExitCode, isBrokenPipe, UserError } from "./lib/core/errors.ts";
import { streamWriter } from "./lib/ui/output.ts";
import { VERSION } from "./lib/version.ts";

async function main(args: readonly string[]): Promise<number> {
  const writeOut = streamWriter(Deno.stdout);
  const writeErr = streamWriter(Deno.stderr);
  // The same bytes commander prints for --version, without loading it.
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    writeOut(`${VERSION}\n`);
    return ExitCode.ok;
  }
  try {
    const [{ runCli }, { createProcessContext }] = await Promise.all([
      import("./lib/cli/program.ts"),
      import("./lib/app/context.ts"),
    ]);
    return await runCli(args, { makeContext: createProcessContext, writeOut, writeErr });
  } catch (error) {
    // The reader of our output went away (`claudecm list --json | head`): nobody to tell.
    if (isBrokenPipe(error)) return ExitCode.failure;
    const userError = error instanceof UserError ? error : environmentUserError(error);
    if (userError !== null) {
      report(writeErr, `claudecm: ${userError.message}\n`);
      if (Deno.env.get("CLAUDECM_DEBUG") && userError !== error) console.error(error);
      return userError.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    report(writeErr, `claudecm: internal error: ${message}\n`);
    if (Deno.env.get("CLAUDECM_DEBUG")) console.error(error);
    return ExitCode.failure;
  }
}

function report(writeErr: (text: string) => void, text: string): void {
  try {
    writeErr(text);
  } catch {
    // stderr is gone too; the exit code still tells.
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
