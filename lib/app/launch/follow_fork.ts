/**
 * A fork claude made on its own carries a session's whole history forward
 * under a new id (spec 11.6.1, session/next_session.ts): the row follows it, and the
 * predecessor's transcript is set aside in the backup folder, never deleted (its
 * sidecar stays while the fork's lines name files in it: DESIGN.md 24). Used by
 * every path that ends on such a fork: a resume, and `claude -c`.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { recheckThenAct, refusalOf } from "../recheck.ts";
import { recordLineage } from "../session/lineage_record.ts";
import { syncVault } from "../vault/vault_sync.ts";
import { sessionBackupDir } from "../../core/paths.ts";
import { stampFile } from "../../core/preconditions.ts";
import { findSession } from "../../core/registry.ts";
import { swapGuid } from "../../core/registry_ops.ts";
import { moveSessionAside } from "../../store/move_aside.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";
import { keptSidecar, sayKept } from "../session/kept_sidecar.ts";

/** Point the row at the fork and set the predecessor aside; false when the fork is another row's. */
export async function followFork(
  ctx: AppContext,
  fork: { dir: string; folder: string; guid: string; fork: string },
): Promise<boolean> {
  // Decided under the lock: a row that has the fork's id by now (an adopt meanwhile) keeps it.
  let taken = false;
  const registry = await changeRegistry(ctx, (r) => {
    taken = findSession(r, fork.fork) !== undefined;
    return taken || findSession(r, fork.guid) === undefined ? r : swapGuid(r, fork.guid, fork.fork);
  });
  if (taken) return false;
  recordLineage(ctx, { kind: "fork", from: fork.guid, to: fork.fork });
  syncSessionIndex(ctx.paths, fork.dir, registry);
  syncVault(ctx, { guids: [fork.fork] });
  ctx.out.line(
    `  Claude continued this session as ${fork.fork}; the list now points there.`,
    "cyan",
  );
  // The fork carries the whole history forward; the predecessor is kept, out of the way,
  // unless another window took it up again meanwhile.
  const destDir = sessionBackupDir(ctx.paths, fork.dir);
  const stamp = stampFile(ctx.paths.path.join(fork.folder, `${fork.guid}.jsonl`));
  // The fork's copied lines name the predecessor's tool results where they are (DESIGN.md 24).
  const kept = keptSidecar(ctx, { folder: fork.folder, guid: fork.guid, successor: fork.fork });
  const step = await recheckThenAct(ctx, {
    guid: fork.guid,
    registration: { registered: false },
    files: stamp === null ? [] : [stamp],
  }, () => ({
    value: moveSessionAside(fork.folder, fork.guid, {
      destDir,
      join: ctx.paths.path.join,
      keepSidecar: kept !== null,
    }),
  })).catch(refusalOf);
  ctx.out.line(
    step.done
      ? `  The previous transcript is in ${destDir}.`
      : `  The previous transcript stays in ${fork.folder}: ${step.reason}.`,
    step.done ? "cyan" : "yellow",
  );
  if (step.done && kept !== null) sayKept(ctx, kept);
  return true;
}
