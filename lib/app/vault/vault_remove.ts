/**
 * An explicit delete (D#) takes the session out of the vault too, after the
 * confirmation that names the vault's copy: every entry of it, under
 * whichever folder's key (its row may have changed folder since).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { errorMessage } from "../../core/errors.ts";
import { findVaultEntries } from "../../core/session_copies.ts";
import { removeVaultEntry, vaultEntryFiles } from "../../store/vault_entry.ts";

/**
 * The vault's files of session `guid`, for a confirmation to list; none when
 * it has none. A vault that cannot be read throws: the confirmation must not
 * leave out a copy it would delete.
 */
export function vaultCopyPaths(ctx: AppContext, guid: string): string[] {
  return findVaultEntries(ctx.paths, guid).flatMap(vaultEntryFiles);
}

/**
 * Remove session `guid`'s vault entries (transcript, generations, and the
 * sidecar unless `keepSidecar`: another registered session names files in
 * it); returns what could not be removed, with why.
 */
export function removeVaultCopy(
  ctx: AppContext,
  guid: string,
  { keepSidecar = false }: { keepSidecar?: boolean } = {},
): string[] {
  return findVaultEntries(ctx.paths, guid).flatMap((entry) => {
    try {
      removeVaultEntry(entry, { keepSidecar });
      return [];
    } catch (error) {
      return [`${entry.transcript} (the vault's copy): ${errorMessage(error)}`];
    }
  });
}
