/**
 * An explicit delete (D#) takes the session out of the vault too, after the
 * confirmation that names the vault's copy.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { vaultFilesFor } from "../../core/session_copies.ts";
import { removeVaultEntry, vaultEntryFiles } from "../../store/vault_entry.ts";

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

/** Remove `session`'s vault entry (transcript, generations, sidecar); throws when it cannot. */
export function removeVaultCopy(ctx: AppContext, session: VaultSession): void {
  removeVaultEntry(vaultFilesFor(ctx.paths, session));
}
