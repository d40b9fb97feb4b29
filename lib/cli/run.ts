/**
 * Run one claudecm command for main.ts: build the process context and the
 * command tree, run it, and turn errors into a one-line message and an exit
 * code, never a stack trace. I/O failures the environment causes
 * (permissions, a full or read-only disk, a folder where a file belongs) are
 * user errors naming the path; only the rest is "internal".
 *
 * @module
 */

import { environmentUserError, ExitCode, isBrokenPipe, UserError } from "../core/errors.ts";
import { streamWriter } from "../ui/output.ts";
import { runCli } from "./program.ts";
import { safeJson, visibleText } from "../core/safe_text.ts";
import type { ProcessStreams } from "../app/context.ts";
import { endingExitCode, endingSignal } from "../platform/ending_signal.ts";

/** Run claudecm with `args` (without the program name); returns the exit code. */
export async function runMain(args: readonly string[]): Promise<number> {
  const toStdout = unlessEnded(streamWriter(Deno.stdout));
  const toStderr = unlessEnded(streamWriter(Deno.stderr));
  let printed = false;
  let lastError = "";
  const writeOut = (text: string) => {
    printed = true;
    toStdout(text);
  };
  // A flow's output (lib/ui/output.ts) made its text safe and added its own colour, which must act.
  const flowErr = (text: string) => {
    if (text.trim() !== "") lastError = text;
    toStderr(text);
  };
  // An error message may quote an argument, a file name or a registry line (DESIGN.md 5.17).
  const writeErr = (text: string) => flowErr(visibleText(text));
  let wantsJson = false;
  const onJson = () => wantsJson = true;
  const code = await runReporting(args, { writeOut, writeErr }, { flowErr, onJson });
  // A script that asked for JSON gets JSON on a failure too, unless the command printed its own.
  if (code !== ExitCode.ok && wantsJson && !printed) {
    const message = plainText(lastError).replace(/^claudecm: /, "") || "failed";
    const status = code === ExitCode.usage ? "usage-error" : "error";
    report(toStdout, `${safeJson({ status, exitCode: code, message })}\n`);
  }
  // Ended by a closed terminal or a SIGTERM once its work was left right: as a shell reports it.
  const ending = endingSignal();
  return ending === null ? code : endingExitCode(ending);
}

/**
 * `write`, except that once a closed terminal or a SIGTERM is ending the run
 * (platform/ending_signal.ts), what nobody can read any more is let go.
 */
function unlessEnded(write: (text: string) => void): (text: string) => void {
  return (text) => {
    try {
      write(text);
    } catch (error) {
      if (endingSignal() === null) throw error;
    }
  };
}

/** Run the command line, turning what it throws into a one-line message and an exit code. */
async function runReporting(
  args: readonly string[],
  streams: ProcessStreams,
  { flowErr, onJson }: { flowErr: (text: string) => void; onJson: () => void },
): Promise<number> {
  const { writeErr } = streams;
  try {
    return await runCli(args, {
      onJson,
      // Loaded only for a command that runs: help and usage errors need none of it.
      makeContext: async (options) =>
        (await import("../app/context.ts")).createProcessContext(
          { writeOut: streams.writeOut, writeErr: flowErr },
          options,
        ),
      ...streams,
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

/** A line as written to stderr, without its colour codes and indentation. */
function plainText(line: string): string {
  // deno-lint-ignore no-control-regex -- the colour codes are exactly what it removes
  return line.replace(/\x1b\[[0-9;]*m/g, "").trim();
}

function report(writeErr: (text: string) => void, text: string): void {
  try {
    writeErr(text);
  } catch {
    // stderr is gone too; the exit code still tells.
  }
}
