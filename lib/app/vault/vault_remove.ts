/**
 * An explicit delete (D#) takes the session out of the vault too, after the
 * confirmation that names the vault's copy. Also the one way for `move` to
 * carry a session's entry to its new project key.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { errorMessage } from "../../core/errors.ts";
import { vaultFilesFor } from "../../core/session_copies.ts";
import { moveVaultEntry, removeVaultEntry, vaultEntryFiles } from "../../store/vault_entry.ts";

/** A session as the vault knows it: its id and registered folder. */
export interface VaultSession {
  guid: string;
  dir: string;
}

/** The vault's files of `session`, for a confirmation to list; none when it has none. */
export function vaultCopyPaths(ctx: AppContext, session: VaultSession): string[] {
  try {
    return vaultEntryFiles(vaultFilesFor(ctx.paths, session));
  } catch {
    return [];
  }
}

/** Remove `session`'s vault entry; false (after one red line) when it could not be removed. */
export function removeFromVault(ctx: AppContext, session: VaultSession): boolean {
  const vault = vaultFilesFor(ctx.paths, session);
  try {
    removeVaultEntry(vault);
    return true;
  } catch (error) {
    ctx.err.line(
      `  Could not remove the vault's copy ${vault.transcript}: ${errorMessage(error)}`,
      "red",
    );
    return false;
  }
}

/**
 * Move `guid`'s vault entry from folder `fromDir`'s project key to `toDir`'s
 * (for `claudecm move` and P#). Nothing to move is fine; an entry already at
 * the destination is never replaced (throws AlreadyExists).
 */
export function moveVaultEntries(
  ctx: AppContext,
  guid: string,
  { fromDir, toDir }: { fromDir: string; toDir: string },
): void {
  const from = vaultFilesFor(ctx.paths, { guid, dir: fromDir });
  const to = vaultFilesFor(ctx.paths, { guid, dir: toDir });
  if (from.folder === to.folder) return;
  moveVaultEntry(from, to);
}
