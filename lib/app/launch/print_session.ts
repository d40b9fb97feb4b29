/**
 * What a `claude -p` run leaves behind when its session is not kept: the
 * recovery primer's run (spec 11.7 step 2g), a failed or cancelled refresh.
 * Its transcript and sidecar folder are removed, so the session never turns
 * up later as an orphan; a registered session's files never are.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { errorMessage } from "../../core/errors.ts";
import { pathExists } from "../../core/fs_checks.ts";
import { findSession, isSessionId } from "../../core/registry.ts";
import { sessionFilesFor } from "../../core/session_copies.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";

/**
 * Remove session `guid`'s files from the project folder of `dir`, unless it
 * is registered: decided under the registry lock, right before the removal.
 * `what` names the run in the warning when the removal fails.
 */
export async function discardPrintSession(
  ctx: AppContext,
  { dir, guid, what }: { dir: string; guid: string | null; what: string },
): Promise<void> {
  if (guid === null || !isSessionId(guid)) return;
  const files = sessionFilesFor(ctx.paths, { guid, dir });
  if (!pathExists(files.transcript) && !pathExists(files.sidecar)) return;
  let removed = false;
  try {
    const registry = await changeRegistry(ctx, (r) => {
      if (findSession(r, guid) !== undefined) return r;
      if (pathExists(files.transcript)) Deno.removeSync(files.transcript);
      if (pathExists(files.sidecar)) Deno.removeSync(files.sidecar, { recursive: true });
      removed = true;
      return r;
    });
    if (removed) syncSessionIndex(ctx.paths, dir, registry);
  } catch (error) {
    ctx.err.line(`  Could not remove ${what}'s transcript: ${errorMessage(error)}`, "yellow");
  }
}
