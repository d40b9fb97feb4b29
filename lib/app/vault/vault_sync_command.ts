/**
 * `claudecm vault sync`: bring every registered session's vault entry up to
 * date now, and say what it did.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { syncVault, VAULT_ENV, vaultEnabled } from "./vault_sync.ts";
import { ExitCode } from "../../core/errors.ts";
import { safeJson } from "../../core/safe_text.ts";
import { removeDeadWritersTemps } from "../../store/stale_temps.ts";
import { foldersUnder } from "../../store/vault_entry.ts";

/** Sync the vault; exit 1 when it could not be written. */
export function runVaultSync(ctx: AppContext, options: { json?: boolean } = {}): number {
  if (!vaultEnabled(ctx)) {
    ctx.err.line(`  The vault is off (${VAULT_ENV}=off); nothing was synced.`, "yellow");
    return ExitCode.failure;
  }
  const summary = syncVault(ctx);
  if (summary.failure !== null) return ExitCode.failure;
  if (summary.busy) {
    ctx.err.line(
      "  Another claudecm is updating the vault now; run claudecm vault sync again when it is done.",
      "yellow",
    );
    return ExitCode.failure;
  }
  // What a killed sync left half-written is never an entry: only its temporary file.
  for (const folder of foldersUnder(ctx.paths.vaultDir)) removeDeadWritersTemps(folder);
  if (options.json) {
    const { synced, changed, copied, absent } = summary;
    ctx.out.line(
      safeJson({ synced, updated: changed, byCopy: copied, withoutTranscript: absent }, 2),
    );
    return ExitCode.ok;
  }
  ctx.out.line(
    `  Vault synced: ${summary.synced} sessions (${summary.changed} updated, ` +
      `${summary.copied} by copy); ${summary.absent} without a transcript to keep.`,
    "green",
  );
  return ExitCode.ok;
}
