/**
 * The edit list's path change (spec 11.10, P#): the session now belongs to
 * another folder. Its transcript (and sidecar dir) is copied to the new
 * folder's project key, where claude will look for it, and both project
 * indexes are synced. The original stays where it was: nothing is lost.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { errorMessage } from "../../core/errors.ts";
import { isDirectory, pathExists, probePath } from "../../core/fs_checks.ts";
import { projectDirFor } from "../../core/paths.ts";
import {
  findSession,
  InvalidRegistryFieldError,
  type Session,
  validateSessionDir,
} from "../../core/registry.ts";
import { changeDir } from "../../core/registry_ops.ts";
import { copySync } from "../../store/copy.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";

/** Ask for the new folder of `session` and move the session there. */
export async function changeSessionPath(ctx: AppContext, session: Session): Promise<void> {
  ctx.out.line(`  Current path: ${session.dir}`);
  const typed = (ctx.prompter.ask("  New path (Enter to keep): ") ?? "").trim();
  if (typed === "") return;
  const dir = ctx.paths.path.resolve(ctx.cwd(), typed);
  try {
    validateSessionDir(dir);
  } catch (error) {
    if (!(error instanceof InvalidRegistryFieldError)) throw error;
    ctx.out.line(`  ${error.message}`, "red");
    return;
  }
  if (!isDirectory(dir)) {
    ctx.out.line(`  Not a directory: ${dir}`, "red");
    return;
  }
  try {
    copyTranscript(ctx, session, dir);
  } catch (error) {
    ctx.out.line(`  Could not copy the transcript: ${errorMessage(error)}`, "red");
    ctx.out.line("  The path is unchanged.", "red");
    return;
  }
  const registry = await changeRegistry(
    ctx,
    (r) => findSession(r, session.guid) === undefined ? r : changeDir(r, session.guid, dir),
  );
  syncSessionIndex(ctx.paths, session.dir, registry);
  syncSessionIndex(ctx.paths, dir, registry);
  ctx.out.line(`  Path changed: ${session.desc} -> ${dir}`, "green");
}

/** Copy `<guid>.jsonl` and `<guid>/` to the new folder's key; an existing copy is kept. */
function copyTranscript(ctx: AppContext, session: Session, dir: string): void {
  const from = projectDirFor(ctx.paths, session.dir);
  const to = projectDirFor(ctx.paths, dir);
  if (from === to) return;
  const join = ctx.paths.path.join;
  for (const name of [`${session.guid}.jsonl`, session.guid]) {
    const source = join(from, name);
    const target = join(to, name);
    // A transcript that cannot be looked at is not missing (DESIGN.md 5.11): moving the
    // row without it would leave the session's history behind.
    const probe = probePath(source);
    if (probe.kind === "unreadable") throw new Error(`cannot read ${source}: ${probe.error}`);
    if (!pathExists(source) || pathExists(target)) continue;
    Deno.mkdirSync(to, { recursive: true });
    copySync(source, target);
  }
}
