/**
 * `claudecm move OLD NEW`: the user moved or renamed a project folder; move
 * what Claude Code and claudecm keep about it (transcripts, session folders,
 * memory, vault copies, `~/.claude.json` entries, registry rows) so its
 * sessions resume from NEW. Idempotent: a run killed halfway is finished by
 * the next, and a finished move has nothing to do.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { applyMove } from "./move_apply.ts";
import { isEmptyPlan, type MovePlan, planMove } from "./move_plan.ts";
import { refuseUnsafeMove, refuseUnsaveable } from "./move_refusals.ts";
import { planJson, printPlan, printStalePaths, printStaying } from "./move_view.ts";
import { ExitCode, UsageError, UserError } from "../../core/errors.ts";
import { lookAgainIfGone } from "../../core/fs_checks.ts";
import { askYesNo } from "../../ui/prompt.ts";

/** What `move` was asked. */
export interface MoveOptions {
  from: string;
  to: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Run `claudecm move`; returns the exit code. Refusals throw a one-line UserError. */
export async function runMove(ctx: AppContext, options: MoveOptions): Promise<number> {
  const plan = checkedPlan(ctx, options);
  if (isEmptyPlan(plan)) {
    if (options.json) ctx.out.line(planJson(plan, "nothing"));
    else ctx.out.line(`  Nothing to do: nothing of ${plan.from} is left to move.`);
    return ExitCode.ok;
  }
  if (options.dryRun) {
    if (options.json) ctx.out.line(planJson(plan, "planned"));
    else printPlan(ctx, plan);
    return ExitCode.ok;
  }
  refuseUnsaveable(ctx, plan);
  // A person at the keyboard whose output goes to a pipe would not see the question: no silent move.
  if (!options.json && !ctx.interactive && ctx.keyboard) {
    throw new UsageError(
      "move shows its plan and asks before it moves, and its output is not a terminal: run it " +
        "with its output on the terminal, or with --json (which does not ask)",
    );
  }
  if (!options.json && ctx.interactive) {
    printPlan(ctx, plan);
    if (!confirm(ctx)) {
      ctx.out.line("  Not moved.");
      return ExitCode.ok;
    }
  }
  await applyMove(ctx, plan);
  if (options.json) ctx.out.line(planJson(plan, "moved"));
  else reportMoved(ctx, plan, { planShown: ctx.interactive });
  return ExitCode.ok;
}

/**
 * Move without asking, for `resume N` on a gone folder once the user has
 * named the new one; refusals throw as for `claudecm move`.
 */
export async function moveFolder(
  ctx: AppContext,
  request: { from: string; to: string },
): Promise<void> {
  const plan = checkedPlan(ctx, request);
  if (isEmptyPlan(plan)) return;
  refuseUnsaveable(ctx, plan);
  await applyMove(ctx, plan);
  reportMoved(ctx, plan, { planShown: false });
}

/**
 * The plan, checked. Another claudecm may be moving the same folder's files
 * while they are listed and measured (a second `move` at once): a file gone
 * between the two is looked for again in a fresh plan (lookAgainIfGone).
 */
function checkedPlan(ctx: AppContext, request: { from: string; to: string }): MovePlan {
  const plan = lookAgainIfGone(() => {
    const plan = planMove(ctx, request);
    refuseUnsafeMove(ctx, plan);
    return plan;
  });
  if (plan === "changing") {
    throw new UserError(
      `the files of ${request.from} kept changing while the move was planned (another ` +
        "claudecm moving them?); run it again",
    );
  }
  return plan;
}

function reportMoved(ctx: AppContext, plan: MovePlan, { planShown }: { planShown: boolean }): void {
  // The plan said it before the question; a move made unasked says it here.
  if (!planShown) {
    printStaying(ctx, plan);
    printStalePaths(ctx, plan);
  }
  const sessions = new Set(plan.files.filter((f) => f.kind === "transcript").map((f) => f.guid));
  ctx.out.line(
    `  Moved ${sessions.size} transcript(s), ${plan.rows.length} row(s) and ` +
      `${plan.settings.length} settings entr${plan.settings.length === 1 ? "y" : "ies"} ` +
      `to ${plan.to}` +
      (plan.historyLines > 0 ? `; ${plan.historyLines} prompt history line(s) follow it.` : "."),
    "green",
  );
}

/** Default No: no answer (input closed) is not a yes. */
function confirm(ctx: AppContext): boolean {
  return askYesNo(ctx.prompter, "  Move them? [y/N]: ", { defaultYes: false });
}
