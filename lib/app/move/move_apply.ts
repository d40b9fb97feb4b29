/**
 * Carrying out a move plan, in an order that a kill at any point leaves
 * resumable: `memory/` first (the next run finds its folder through the
 * sessions still there), then each session's `<guid>/` folder before its
 * transcript (the transcript is what the next run finds the session by) and
 * its vault copies, then `~/.claude.json` and claude's prompt history, and
 * the registry last. A transcript that stays where it is (claude's one
 * folder of every project, a key OLD and NEW share) gets its `relocated`
 * record at its session's turn, before its vault copies move.
 *
 * Each session's files move under the registry lock once what the move
 * relies on is checked again there (recheck.ts): not open in a claude
 * window, its row (or its absence) as planned, its transcript unchanged.
 *
 * @module
 */

import { recordLineage } from "../session/lineage_record.ts";
import type { AppContext } from "../context.ts";
import { recheckThenAct } from "../recheck.ts";
import { changeRegistry } from "../registry.ts";
import { type FileMove, type MovePlan, MoveRefusedError } from "./move_plan.ts";
import type { Preconditions } from "../../core/preconditions.ts";
import { environmentUserError, UserError, withPath } from "../../core/errors.ts";
import { describeFsError } from "../../core/fs_checks.ts";
import { changeDir, rewriteDirPrefix } from "../../core/registry_ops.ts";
import { findSession } from "../../core/registry.ts";
import { backupRegistry } from "../../store/backups.ts";
import { renameClaudeJsonEntries } from "../../store/claude_json_store.ts";
import { historyFileOf, moveHistoryLines } from "../../store/history_store.ts";
import { MergeConflictError, mergeMove } from "../../store/merge_move.ts";
import { appendRelocatedRecord } from "../../store/relocated_record.ts";
import { claudeTempRoot, repointTaskOutputs } from "../../store/task_output_links.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";

/** Make the moves of `plan`; throws a one-line refusal (after what was done) when one cannot go on. */
export async function applyMove(ctx: AppContext, plan: MovePlan): Promise<void> {
  for (const file of plan.files.filter((f) => f.guid === undefined)) moveFile(file);
  const tempRoot = claudeTempRoot(ctx.env, ctx.os);
  for (const [guid, files] of sessionGroups(plan)) {
    const step = await recheckThenAct(ctx, preconditionsFor(plan, guid), () => {
      for (const file of files) {
        // Its `<guid>/` folder has moved (it goes first): claude's task-output links into it
        // follow before the transcript, by which a rerun finds the session, moves.
        if (file.kind === "transcript" && tempRoot !== null) {
          repointTaskOutputs(tempRoot, guid, sidecarsOf(ctx, file));
        }
        moveFile(file);
      }
      return { value: undefined };
    });
    if (!step.done) {
      throw new MoveRefusedError(
        `stopped halfway at session ${guid}: ${step.reason}; run the move again to finish`,
      );
    }
  }
  if (plan.settings.length > 0) renameClaudeJsonEntries(ctx.paths.claudeJsonFile, plan.settings);
  // Counted again: a claude typing in OLD's subfolder since the plan adds lines to move.
  if (plan.historyLines > 0) plan.historyLines = moveHistory(ctx, plan);
  // Spec 5.0's rolling backup, taken by this writing command too, before the rows change.
  if (plan.rows.length > 0) backupRegistry(ctx.paths, ctx.now());
  const registry = await changeRegistry(ctx, (r) => {
    // A row saved through a symlinked parent names OLD only resolved: the plan names it.
    let next = r;
    for (const row of plan.rows) {
      if (findSession(next, row.guid)?.dir === row.from) next = changeDir(next, row.guid, row.to);
    }
    return rewriteDirPrefix(next, { from: plan.from, to: plan.to, os: ctx.os });
  });
  for (const row of plan.rows) {
    recordLineage(ctx, {
      kind: "move",
      from: row.guid,
      to: row.guid,
      fromDir: row.from,
      toDir: row.to,
    });
  }
  for (const folder of plan.folders) {
    syncSessionIndex(ctx.paths, folder.from, registry);
    syncSessionIndex(ctx.paths, folder.to, registry);
  }
}

function moveHistory(ctx: AppContext, plan: MovePlan): number {
  const file = historyFileOf(ctx.paths);
  try {
    return moveHistoryLines(file, plan, { os: ctx.os });
  } catch (error) {
    // The files moved stay moved and the rows still name OLD: a rerun finishes.
    const why = error instanceof UserError
      ? error.message
      : environmentUserError(withPath(error, file))?.message ??
        `cannot rewrite ${file}: ${describeFsError(error)}`;
    throw new MoveRefusedError(`stopped halfway: ${why}; run the move again to finish`);
  }
}

/** The `<guid>/` folders beside a transcript's old and new names, with trailing separators. */
function sidecarsOf(ctx: AppContext, transcript: FileMove): { from: string; to: string } {
  const { dirname, join, sep } = ctx.paths.path;
  const guid = transcript.guid!;
  return {
    from: join(dirname(transcript.from), guid) + sep,
    to: join(dirname(transcript.to), guid) + sep,
  };
}

/** Each session's files, in plan order (sidecar, transcript, vault copies). */
function sessionGroups(plan: MovePlan): Map<string, FileMove[]> {
  const groups = new Map<string, FileMove[]>();
  for (const file of plan.files) {
    if (file.guid !== undefined) groups.set(file.guid, [...groups.get(file.guid) ?? [], file]);
  }
  return groups;
}

function preconditionsFor(plan: MovePlan, guid: string): Preconditions {
  const dir = plan.rows.find((r) => r.guid === guid)?.from ?? plan.settledRows.get(guid);
  const stamp = plan.stamps.get(guid);
  return {
    guid,
    registration: dir === undefined ? { registered: false } : { registered: true, dir },
    files: stamp === undefined ? [] : [stamp],
  };
}

function moveFile(file: FileMove): void {
  // Before the rename: a rerun after a kill between the two finds it by that record (and a
  // stamped one that stays, by it alone).
  if (file.relocatedCwd !== undefined && file.guid !== undefined) {
    appendRelocatedRecord(file.from, { sessionId: file.guid, relocatedCwd: file.relocatedCwd });
  }
  if (file.kind === "stamped") return;
  try {
    mergeMove(file.from, file.to);
  } catch (error) {
    // A file that appeared since the plan: what moved so far stays moved; a rerun finishes.
    if (!(error instanceof MergeConflictError)) throw error;
    throw new MoveRefusedError(`stopped halfway: ${error.message}; move one away, then run again`);
  }
}
