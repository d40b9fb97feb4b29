/**
 * The three ways `recall` refuses to produce a capsule (recall-contract.md),
 * each with its own exit code and JSON status. They are UserErrors, so
 * main.ts prints the one-line message and exits with the code; with --json
 * the flow prints the status object on stdout first.
 *
 * @module
 */

import { UserError } from "../../core/errors.ts";
import { type FailureStatus, RECALL_EXIT } from "./defaults.ts";

/** A refusal: no capsule, a status, and the facts a script needs. */
export class RecallFailure extends UserError {
  readonly status: FailureStatus;
  readonly details: Record<string, unknown>;
  constructor(status: FailureStatus, message: string, details: Record<string, unknown>) {
    super(message, RECALL_EXIT[status]);
    this.name = "RecallFailure";
    this.status = status;
    this.details = details;
  }

  /** The refusal as `--json` prints it. */
  toJson(): Record<string, unknown> {
    return { status: this.status, exitCode: this.exitCode, ...this.details, message: this.message };
  }
}
