/**
 * claudecm entry point: run the CLI with Deno.args and turn errors into a
 * one-line message and an exit code, never a stack trace.
 *
 * @module
 */

import { createProcessContext } from "./lib/app/context.ts";
import { runCli } from "./lib/cli/program.ts";
import { ExitCode, UserError } from "./lib/core/errors.ts";
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
    if (error instanceof UserError) {
      writeErr(`claudecm: ${error.message}\n`);
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    writeErr(`claudecm: internal error: ${message}\n`);
    if (Deno.env.get("CLAUDECM_DEBUG")) console.error(error);
    return ExitCode.failure;
  }
}

if (import.meta.main) Deno.exit(await main());
