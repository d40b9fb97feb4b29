/**
 * Carrying out a move plan, in an order that a kill at any point leaves
 * resumable: each session's `<guid>/` folder before its transcript (the
 * transcript is what the next run finds the session by), `memory/`, the
 * vault, then `~/.claude.json`, and the registry last, under its lock.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { type MovePlan, MoveRefusedError } from "./move_plan.ts";
import { isSessionLive } from "../../core/pid_manifest.ts";
import { rewriteDirPrefix } from "../../core/registry_ops.ts";
import { backupRegistry } from "../../store/backups.ts";
import { renameClaudeJsonEntries } from "../../store/claude_json_store.ts";
import { MergeConflictError, mergeMove } from "../../store/merge_move.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";

/** Make the moves of `plan`; throws (after what was done) when a session comes alive or a file differs. */
export async function applyMove(ctx: AppContext, plan: MovePlan): Promise<void> {
  for (const file of plan.files) {
    // Re-checked right before each rename: a claude started since the plan would lose its writes.
    if (file.guid !== undefined && isSessionLive(ctx.paths, file.guid)) {
      throw new MoveRefusedError(
        `session ${file.guid} started running; exit it, then run the move again to finish`,
      );
    }
    try {
      mergeMove(file.from, file.to);
    } catch (error) {
      // A file that appeared since the plan: what moved so far stays moved; a rerun finishes.
      if (!(error instanceof MergeConflictError)) throw error;
      throw new MoveRefusedError(
        `stopped halfway: ${error.message}; move one away, then run again`,
      );
    }
  }
  if (plan.settings.length > 0) renameClaudeJsonEntries(ctx.paths.claudeJsonFile, plan.settings);
  // Spec 5.0's rolling backup, taken by this writing command too, before the rows change.
  if (plan.rows.length > 0) backupRegistry(ctx.paths, ctx.now());
  const registry = await changeRegistry(
    ctx,
    (r) => rewriteDirPrefix(r, { from: plan.from, to: plan.to, os: ctx.os }),
  );
  for (const folder of plan.folders) {
    syncSessionIndex(ctx.paths, folder.from, registry);
    syncSessionIndex(ctx.paths, folder.to, registry);
  }
}
