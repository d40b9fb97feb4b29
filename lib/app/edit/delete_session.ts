/**
 * Deleting a session for good (spec 11.12), the one destructive action in
 * the menus: a typed `delete` confirms it, then the transcript and its
 * sidecar dir are removed and the project's index synced. The caller
 * removes the row, and only when the files are gone.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { removeFromVault, vaultCopyPaths } from "../vault/vault_remove.ts";
import { errorMessage } from "../../core/errors.ts";
import { isNotFound } from "../../core/fs_checks.ts";
import { projectDirFor } from "../../core/paths.ts";
import { liveSessionIds } from "../../core/pid_manifest.ts";
import { findSession, type Session } from "../../core/registry.ts";
import { removeSession } from "../../core/registry_ops.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";

/** Ask, delete the files, then the row; prints what happened. */
export async function deleteWithConfirmation(ctx: AppContext, session: Session): Promise<void> {
  if (liveSessionIds(ctx.paths).has(session.guid)) {
    ctx.out.line(`  '${session.desc}' is open in a claude window now; close it first.`, "red");
    return;
  }
  const folder = projectDirFor(ctx.paths, session.dir);
  ctx.out.line();
  ctx.out.line(`  This permanently deletes '${session.desc}':`, "red");
  ctx.out.line(`  its transcript and subagent files in ${folder}`, "red");
  const vaultCopy = vaultCopyPaths(ctx, session);
  if (vaultCopy.length > 0) {
    ctx.out.line(`  its copy in the vault: ${vaultCopy[0]} (${vaultCopy.length} files)`, "red");
  }
  ctx.out.line("  and its entry in the session list. This cannot be undone.", "red");
  const answer = ctx.prompter.ask("  Type 'delete' to confirm: ");
  if (answer === null || answer.trim().toLowerCase() !== "delete") {
    ctx.out.line("  Cancelled.");
    return;
  }
  try {
    deleteSessionFiles(ctx, session);
  } catch (error) {
    ctx.out.line(`  Could not delete the session's files: ${errorMessage(error)}`, "red");
    ctx.out.line("  The entry is kept.", "red");
    return;
  }
  if (!removeFromVault(ctx, session)) {
    ctx.out.line("  The entry is kept.", "red");
    return;
  }
  await changeRegistry(
    ctx,
    (r) => findSession(r, session.guid) === undefined ? r : removeSession(r, session.guid),
  );
  ctx.out.line(`  Deleted: ${session.desc}`, "green");
}

/** Spec 11.12: remove `<guid>.jsonl` and `<guid>/` from the project folder, then sync the index. */
function deleteSessionFiles(ctx: AppContext, session: Session): void {
  const folder = projectDirFor(ctx.paths, session.dir);
  for (const name of [`${session.guid}.jsonl`, session.guid]) {
    const path = ctx.paths.path.join(folder, name);
    try {
      Deno.lstatSync(path);
    } catch (error) {
      // Only "not found" is nothing to delete; a file we cannot see keeps the entry (5.11).
      if (isNotFound(error)) continue;
      throw error;
    }
    Deno.removeSync(path, { recursive: true });
  }
  syncSessionIndex(ctx.paths, session.dir, readRegistry(ctx.paths));
}
