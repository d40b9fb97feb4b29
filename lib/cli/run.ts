/**
 * Run one claudecm command for main.ts: build the process context and the
 * command tree, run it, and turn errors into a one-line message and an exit
 * code, never a stack trace. I/O failures the environment causes
 * (permissions, a full or read-only disk, a folder where a file belongs) are
 * user errors naming the path; only the rest is "internal".
 *
 * @module
 */

import { createProcessContext } from "../app/context.ts";
import { environmentUserError, ExitCode, isBrokenPipe, UserError } from "../core/errors.ts";
import { streamWriter } from "../ui/output.ts";
import { runCli } from "./program.ts";
import { visibleText } from "../core/safe_text.ts";

/** Run claudecm with `args` (without the program name); returns the exit code. */
export async function runMain(args: readonly string[]): Promise<number> {
  const toStderr = streamWriter(Deno.stderr);
  // An error message may quote an argument, a file name or a registry line (DESIGN.md 5.17).
  const writeErr = (text: string) => toStderr(visibleText(text));
  try {
    return await runCli(args, {
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
