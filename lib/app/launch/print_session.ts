/**
 * What a `claude -p` run leaves behind when its session is not kept: the
 * recovery primer's run (spec 11.7 step 2g), a failed or cancelled refresh.
 * Its transcript and sidecar folder are removed, so the session never turns
 * up later as an orphan. Only what the run made goes: never a registered
 * session's files, one whose transcript was there before the run (claude's
 * answer may name another session), nor one open in a claude window.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { errorMessage } from "../../core/errors.ts";
import { pathExists } from "../../core/fs_checks.ts";
import { isSessionId, namedSessionIds } from "../../core/registry.ts";
import { sessionFilesFor } from "../../core/session_copies.ts";
import { projectDirFor } from "../../core/paths.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import { type FolderSnapshot, snapshotFolder } from "../../core/session_files.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";
import { isNoSessionTranscript } from "../../transcript/session_facts.ts";

/** The transcripts in `dir`'s project folder before a `claude -p` run: what it may not remove. */
export function printRunStart(ctx: AppContext, dir: string): PrintRunStart {
  return { before: snapshotFolder(projectDirFor(ctx.paths, dir), ctx.paths.path.join) };
}

/** What was there when a `claude -p` run started (see {@linkcode printRunStart}). */
export interface PrintRunStart {
  before: FolderSnapshot;
}

/**
 * Remove session `guid`'s files from the project folder of `dir` when the
 * run that `start` began made them: not registered (decided under the
 * registry lock, right before the removal), not there before, not open in a
 * claude. `what` names the run in the warning when the removal fails.
 */
export async function discardPrintSession(
  ctx: AppContext,
  start: PrintRunStart,
  { dir, guid, what }: { dir: string; guid: string | null; what: string },
): Promise<void> {
  if (guid === null || !isSessionId(guid)) return;
  if (start.before.has(guid) || isSessionLive(ctx.paths, guid)) return;
  const files = sessionFilesFor(ctx.paths, { guid, dir });
  if (!pathExists(files.transcript) && !pathExists(files.sidecar)) return;
  let removed = false;
  try {
    const registry = await changeRegistry(ctx, (r) => {
      if (namedSessionIds(r).has(guid)) return r;
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

/**
 * `after` without the transcripts that appeared since `before` and are no
 * session (`isNoSession`: a `claude -p` call, or what a `/clear` right before
 * the exit leaves): another window's one-shot answer or an empty conversation
 * is neither a fork of the session claude ran nor a new session to register or
 * to name for adopt (issue 31 defects 6 and 14).
 */
export function withoutNewNonSessions(
  folder: string,
  join: (...parts: string[]) => string,
  { before, after }: { before: FolderSnapshot; after: FolderSnapshot },
): FolderSnapshot {
  return new Map(
    [...after].filter(([id]) =>
      before.has(id) || !isNoSessionTranscript(join(folder, `${id}.jsonl`))
    ),
  );
}
