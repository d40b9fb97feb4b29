/**
 * A restored session's lines may name another session's sidecar files (a
 * fork's copied lines name its predecessor's `<id>/tool-results/…`), which
 * the vault keeps with it (pointed_at.ts, DESIGN.md decision 24): what of
 * them is gone from where the lines name it goes back too, never replacing
 * a file that is there. The other session's transcript stays in the vault.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { errorMessage } from "../../core/errors.ts";
import { isDirectory } from "../../core/fs_checks.ts";
import { restoreVaultSidecar } from "../../store/vault_entry.ts";
import { sidecarsNamedIn } from "../../transcript/named_paths.ts";
import { vaultSetting } from "../vault/vault_sync.ts";

/** Put back the named sidecar files of other sessions that `transcript` (session `guid`) names. */
export function restoreNamedSidecars(
  ctx: AppContext,
  { transcript, guid }: { transcript: string; guid: string },
): string[] {
  const { basename, dirname, join, sep } = ctx.paths.path;
  let named: string[];
  try {
    named = sidecarsNamedIn(transcript, ctx.paths.projectsDir, sep);
  } catch {
    return []; // Unreadable now: the resume that reads it says so.
  }
  const copy = vaultSetting(ctx).mode === "copy";
  const placed: string[] = [];
  for (const sidecar of named) {
    if (basename(sidecar) === guid) continue;
    const kept = join(ctx.paths.vaultDir, basename(dirname(sidecar)), basename(sidecar));
    if (!isDirectory(kept)) continue;
    try {
      placed.push(...restoreVaultSidecar(kept, sidecar, { copy }));
    } catch (error) {
      ctx.err.line(
        `  Could not put back ${sidecar} from the vault: ${errorMessage(error)}`,
        "yellow",
      );
    }
  }
  return placed;
}
