/**
 * cmv missing is said once, the first time a session ends without it, in
 * one line; `claudecm doctor` says it (with where it looked) every time
 * (issue 31 defect 5). That it was said is kept in `~/.claudecm`.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { probePath } from "../../core/fs_checks.ts";
import { writeFileAtomic } from "../../store/atomic_write.ts";

/** The file whose presence says the notice was given. */
export function cmvNoticeFile(ctx: AppContext): string {
  return ctx.paths.path.join(ctx.paths.cmHome, "cmv-missing-said");
}

/** The one line said when cmv is missing. */
export const CMV_MISSING_LINE =
  "cmv not found, so snapshots, trim, refresh and token counts are skipped " +
  "(said once; claudecm doctor says more)";

/** Say {@linkcode CMV_MISSING_LINE} unless it was said before; remember that it was. */
export function sayCmvMissingOnce(ctx: AppContext): void {
  const file = cmvNoticeFile(ctx);
  if (probePath(file).kind !== "missing") return;
  ctx.out.line(`  ${CMV_MISSING_LINE}`, "darkGray");
  try {
    writeFileAtomic(file, `${ctx.now().toISOString()}\n`);
  } catch {
    // Not remembered (a read-only home): said again next time, which loses nothing.
  }
}
