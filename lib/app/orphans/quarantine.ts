/**
 * Quarantine (spec 11.5, `q N`): an orphan transcript and its sidecar dir (the
 * sidecar stays while a registered session's lines name files in it: DESIGN.md 24)
 * move to the quarantine root, `~/claude-conversation-backup/<leaf>/` (spec
 * 3.1), never to `~/.claudecm/backup/`. Only orphans go: the move re-checks
 * under the registry lock that no window registered the session meanwhile,
 * that no claude has it open and that the file is the one the table showed
 * (issue 17 items 2 and 4). A target that refuses the files (full,
 * read-only) is named with its fix and never ends the resume (item 18).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { recheckThenAct } from "../recheck.ts";
import { errorMessage } from "../../core/errors.ts";
import { isWriteRefusal } from "../../core/write_refusal.ts";
import { leafName, projectDirFor } from "../../core/paths.ts";
import type { FileStamp } from "../../core/preconditions.ts";
import { moveSessionAside } from "../../store/move_aside.ts";
import { keptSidecar, sayKept } from "../session/kept_sidecar.ts";

/** An orphan as the table showed it. */
export interface ShownOrphan {
  guid: string;
  /** Its transcript when shown; null when it could no longer be stat'ed. */
  stamp: FileStamp | null;
}

/** Move `orphan` out of `dir`'s project folder; false (after saying why) when it did not move. */
export async function quarantineOrphan(
  ctx: AppContext,
  orphan: ShownOrphan,
  options: { dir: string },
): Promise<boolean> {
  const leaf = leafName(ctx.paths, options.dir);
  const destDir = ctx.paths.path.join(ctx.paths.quarantineRoot, leaf);
  const folder = projectDirFor(ctx.paths, options.dir);
  // A registered session copied from the orphan (a fork) names its tool results where they are.
  // Wherever it is: an orphan has no successor to check first, and a person picked it.
  const kept = keptSidecar(ctx, { folder, guid: orphan.guid, everywhere: true });
  let step;
  try {
    step = await recheckThenAct(ctx, {
      guid: orphan.guid,
      registration: { registered: false },
      files: orphan.stamp === null ? [] : [orphan.stamp],
    }, () => ({
      value: moveSessionAside(folder, orphan.guid, {
        destDir,
        join: ctx.paths.path.join,
        keepSidecar: kept !== null,
      }),
    }));
  } catch (error) {
    reportTargetFailure(ctx, { guid: orphan.guid, destDir, error });
    return false;
  }
  if (!step.done) {
    ctx.out.line(`  ${orphan.guid} was not quarantined: ${step.reason}.`, "red");
    return false;
  }
  ctx.out.line(`  Quarantined to backup: ${leaf}/${orphan.guid}`, "green");
  if (kept !== null) sayKept(ctx, kept);
  return true;
}

function reportTargetFailure(
  ctx: AppContext,
  { guid, destDir, error }: { guid: string; destDir: string; error: unknown },
): void {
  ctx.err.line(
    `  Could not quarantine ${guid} to ${destDir}: ${errorMessage(error)}. ` +
      "The transcript stays where it was.",
    "red",
  );
  if (!isWriteRefusal(error)) return;
  // CLAUDECM_HOME moves claudecm's own files, not this folder: it follows HOME (spec 3.1).
  ctx.err.line(
    `  The quarantine folder is always ${ctx.paths.quarantineRoot} (it follows your ` +
      "home folder; CLAUDECM_HOME does not move it): free space there or make it writable, or replace it " +
      "with a link to a folder on a disk with room.",
    "red",
  );
}
