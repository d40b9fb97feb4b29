/**
 * Setting the pre-trim transcript aside after a trim (spec 11.13 step 11).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { recheckThenAct, refusalOf } from "../recheck.ts";
import { keptSidecar, sayKept } from "../session/kept_sidecar.ts";
import { sessionBackupDir } from "../../core/paths.ts";
import type { FileStamp } from "../../core/preconditions.ts";
import type { Session } from "../../core/registry.ts";
import { moveSessionAside } from "../../store/move_aside.ts";

/** The session trimmed, where, the file cmv trimmed, and the session cmv made of it. */
export type Pretrim = {
  session: Session;
  folder: string;
  pretrim: FileStamp | null;
  successor: string;
};

/**
 * The pre-trim transcript goes to the backup dir, never the quarantine root
 * (spec 3.1), and only while no row has it, no claude has it open and it is
 * the file cmv trimmed (another window may have resumed it meanwhile). Its
 * sidecar stays while the trimmed copy's lines name files in it (DESIGN.md 24).
 */
export async function movePretrimAside(
  ctx: AppContext,
  { session, folder, pretrim, successor }: Pretrim,
): Promise<void> {
  const join = ctx.paths.path.join;
  const destDir = sessionBackupDir(ctx.paths, session.dir);
  const kept = keptSidecar(ctx, { folder, guid: session.guid, successor });
  const step = await recheckThenAct(ctx, {
    guid: session.guid,
    registration: { registered: false },
    files: pretrim === null ? [] : [pretrim],
  }, () => ({
    value: moveSessionAside(folder, session.guid, { destDir, join, keepSidecar: kept !== null }),
  })).catch(refusalOf);
  if (step.done && kept !== null) sayKept(ctx, kept);
  if (step.done) return;
  ctx.err.line(
    `  Did not move the pre-trim transcript ${session.guid}.jsonl to ${destDir}: ` +
      `${step.reason}. It stays in ${folder}.`,
    "yellow",
  );
}
