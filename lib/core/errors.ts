/**
 * Errors that end a command with a one-line message and a chosen exit code.
 * main.ts prints `claudecm: <message>`; anything else is an internal error.
 *
 * @module
 */

/** Exit codes shared by every command (DESIGN.md section 1). */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
} as const;

/** A failure the user can act on: printed as one line, never a stack trace. */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = ExitCode.failure) {
    super(message);
    this.name = "UserError";
    this.exitCode = exitCode;
  }
}

/** A command line that does not parse. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = "UsageError";
  }
}

/** The message of a caught value, for a one-line report. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
