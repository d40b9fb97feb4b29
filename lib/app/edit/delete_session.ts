/**
 * Deleting a session for good (spec 11.12), the one destructive action in
 * the menus: a typed `delete` confirms it, then every copy of the session's
 * transcript under the projects root (with its sidecar dir) is removed and
 * the row with it (issue 17 item 3: a copy left in another folder would come
 * back through `find` and `adopt`). The confirmation lists each path, and the
 * deletion re-checks under the registry lock that the session is still
 * closed, still listed and its files still the ones listed (item 2).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { recheckThenAct } from "../recheck.ts";
import { removeVaultCopy, vaultCopyPaths } from "../vault/vault_remove.ts";
import { errorMessage } from "../../core/errors.ts";
import { isNotFound } from "../../core/fs_checks.ts";
import { type FileStamp, stampFile } from "../../core/preconditions.ts";
import { liveSessionIds } from "../../core/pid_manifest.ts";
import type { Session } from "../../core/registry.ts";
import { removeSession } from "../../core/registry_ops.ts";
import {
  findSessionCopies,
  type SessionFiles,
  sessionFilesFor,
} from "../../core/session_copies.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";

/** Ask, then delete the files and the row together; prints what happened. */
export async function deleteWithConfirmation(ctx: AppContext, session: Session): Promise<void> {
  if (liveSessionIds(ctx.paths).has(session.guid)) {
    ctx.out.line(`  '${session.desc}' is open in a claude window now; close it first.`, "red");
    return;
  }
  const copies = copiesToDelete(ctx, session);
  // What the user is shown is what may be deleted: stamped now, checked again when acting.
  const stamps = copies.map((files) => stampFile(files.transcript))
    .filter((stamp): stamp is FileStamp => stamp !== null);
  ctx.out.line();
  ctx.out.line(`  This permanently deletes '${session.desc}':`, "red");
  for (const files of copies) {
    for (const path of [files.transcript, files.sidecar].filter(exists)) {
      ctx.out.line(`    ${path}`, "red");
    }
  }
  if (copies.length === 0) ctx.out.line("    (no transcript is on disk)", "red");
  const vaultCopy = vaultCopyPaths(ctx, session.guid);
  if (vaultCopy.length > 0) {
    ctx.out.line(`  its copy in the vault: ${vaultCopy[0]} (${vaultCopy.length} files)`, "red");
  }
  ctx.out.line("  and its entry in the session list. This cannot be undone.", "red");
  const answer = ctx.prompter.ask("  Type 'delete' to confirm: ");
  if (answer === null || answer.trim().toLowerCase() !== "delete") {
    ctx.out.line("  Cancelled.");
    return;
  }
  const step = await recheckThenAct(ctx, {
    guid: session.guid,
    registration: { registered: true },
    files: stamps,
    copies: copies.map((files) => files.transcript),
  }, () => {
    for (const files of copies) deleteSessionFiles(files);
    // After the files: a vault copy that cannot be removed keeps the row, and the session
    // stays restorable.
    removeVaultCopy(ctx, session.guid);
    return { value: null, change: (r) => removeSession(r, session.guid, { ifPresent: true }) };
  }).catch((error) => ({ done: false as const, reason: errorMessage(error) }));
  if (!step.done) {
    ctx.out.line(`  Nothing was deleted: ${step.reason}.`, "red");
    ctx.out.line("  The entry is kept.", "red");
    return;
  }
  syncSessionIndex(ctx.paths, session.dir, step.registry);
  ctx.out.line(`  Deleted: ${session.desc}`, "green");
}

/**
 * Every copy under the projects root, plus the registered folder's names when
 * something is there that is not a readable transcript (a sidecar left alone,
 * a link that cannot be followed).
 */
function copiesToDelete(ctx: AppContext, session: Session): SessionFiles[] {
  const copies: SessionFiles[] = findSessionCopies(ctx.paths, session.guid);
  const own = sessionFilesFor(ctx.paths, session);
  if (copies.some((files) => files.folder === own.folder)) return copies;
  return [own.transcript, own.sidecar].some(exists) ? [...copies, own] : copies;
}

/** Whether `path` is there at all (a link that leads nowhere counts). */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Remove one copy's `<guid>.jsonl` and `<guid>/`. */
function deleteSessionFiles(files: SessionFiles): void {
  for (const path of [files.transcript, files.sidecar]) {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch (error) {
      // Only "not found" is nothing to delete; a file we cannot remove keeps the entry (5.11).
      if (!isNotFound(error)) throw error;
    }
  }
}
