/**
 * claudecm entry point: run the CLI with Deno.args and turn errors into a
 * one-line message and an exit code, never a stack trace. I/O failures the
 * environment causes (permissions, a full or read-only disk, a folder where a
 * file belongs) are user errors naming the path; only the rest is "internal".
 *
 * @module
 */

import { createProcessContext } from "./lib/app/context.ts";
import { runCli } from "./lib/cli/program.ts";
import { environmentUserError, ExitCode, isBrokenPipe, UserError } from "./lib/core/errors.ts";
import { streamWriter } from "./lib/ui/output.ts";

async function main(): Promise<number> {
  const writeErr = streamWriter(Deno.stderr);
  try {
    return await runCli(Deno.args, {
      makeContext: createProcessContext,
      writeOut: streamWriter(Deno.stdout),
      writeErr,
    });
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

if (import.meta.main) Deno.exit(await main());
