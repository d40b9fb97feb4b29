/**
 * The edit list's path change (spec 11.10, P#): the session now belongs to
 * another folder, and its files MOVE there (issue 17 item 1). The transcript
 * and its sidecar dir are copied to the new folder's project key, where
 * claude will look for them, the copy is checked, and only then, under the
 * registry lock and with the session still closed and unchanged, does the
 * row change and the old copy move to `~/.claudecm/backup/<leaf>/` (the
 * fork-predecessor destination, spec 3.1). One live copy remains: a later
 * P# back never finds a stale one waiting.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { refusedBeforeAsking } from "../save_check.ts";
import { changeRegistry } from "../registry.ts";
import { recheckThenAct, refusalOf } from "../recheck.ts";
import { keepOneTranscriptCopy } from "../session/transcript_copies.ts";
import { errorMessage } from "../../core/errors.ts";
import { isDirectory, pathExists, readFailure } from "../../core/fs_checks.ts";
import { projectDirFor, sessionBackupDir } from "../../core/paths.ts";
import { removeDeadWritersTempsInProject } from "../../store/stale_temps.ts";
import { withFileLock } from "../../store/lock.ts";
import { stampFile } from "../../core/preconditions.ts";
import {
  findSession,
  InvalidRegistryFieldError,
  type Registry,
  type Session,
  validateSessionDir,
} from "../../core/registry.ts";
import { changeDir } from "../../core/registry_ops.ts";
import {
  findSessionCopies,
  type SessionFiles,
  sessionFilesFor,
} from "../../core/session_copies.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { copySync } from "../../store/copy.ts";
import { removeIfEmpty } from "../../store/merge_move.ts";
import { moveSessionAside } from "../../store/move_aside.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";
import { compareCopies } from "../../transcript/copy_order.ts";
import { namesPathsIn } from "../../transcript/named_paths.ts";
import { typedPath } from "../folder_option.ts";
import { recordLineage } from "../session/lineage_record.ts";
import { appendRelocatedRecord } from "../../store/relocated_record.ts";

/** The lock one P# holds while it copies, re-checks and moves, in claudecm's home. */
const PATH_CHANGE_LOCK = "path-change.lock";

const NOT_WAITING = "Another window's path change is still going on: going ahead without waiting";

/** Ask for the new folder of `session` and move the session there. */
export async function changeSessionPath(ctx: AppContext, session: Session): Promise<void> {
  if (refusedBeforeAsking(ctx, "Changing a session's path")) return;
  ctx.out.line(`  Current path: ${session.dir}`);
  const typed = (ctx.prompter.ask("  New path (Enter to keep): ") ?? "").trim();
  if (typed === "") return;
  const dir = typedPath(ctx, typed);
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
  // A transcript that cannot be looked at is not missing (DESIGN.md 5.11): moving the
  // row without it would leave the session's history behind.
  const located = locateTranscript(ctx.paths, session);
  if (located.status === "unreadable") {
    ctx.out.line(
      `  Could not copy the transcript: cannot read ${located.path}: ${located.error}`,
      "red",
    );
    ctx.out.line("  The path is unchanged.", "red");
    return;
  }
  // One P# at a time: two at once each took the other's copy in flight for a second copy of the
  // session, and every one of them gave up. One that waits past the lock's 10 s (another window
  // asks its user which copy to keep) goes on as before, kept safe by its re-checks under the
  // registry lock, and says so; so does one whose lock file cannot be opened.
  let started = false;
  const moveUnderLock = async (): Promise<Registry | null> => {
    started = true;
    if (!await keepOneTranscriptCopy(ctx, { ...session, registered: true })) {
      ctx.out.line("  The path is unchanged.", "red");
      return null;
    }
    // A P# killed mid-copy left its unfinished copy in the target folder; a rerun that finds the
    // session's copy there already whole copies nothing, so nothing else would sweep it.
    removeDeadWritersTempsInProject(projectDirFor(ctx.paths, dir));
    return await moveToFolder(ctx, { session, dir });
  };
  const lockPath = ctx.paths.path.join(ctx.paths.cmHome, PATH_CHANGE_LOCK);
  let moved: Registry | null;
  try {
    moved = await withFileLock(lockPath, moveUnderLock, {
      onTimeout: () => ctx.err.line(`  ${NOT_WAITING}.`, "yellow"),
    });
  } catch (error) {
    if (started) throw error;
    ctx.err.line(
      `  ${readFailure(lockPath, error)}; going ahead without waiting for other windows.`,
      "yellow",
    );
    moved = await moveUnderLock();
  }
  if (moved === null) return;
  syncSessionIndex(ctx.paths, session.dir, moved);
  syncSessionIndex(ctx.paths, dir, moved);
  ctx.out.line(`  Path changed: ${session.desc} -> ${dir}`, "green");
}

/** Copy, check, then (re-checked under the lock) change the row and move the old copy aside. */
async function moveToFolder(
  ctx: AppContext,
  { session, dir }: { session: Session; dir: string },
): Promise<Registry | null> {
  const source = findSessionCopies(ctx.paths, session.guid)[0];
  const target = sessionFilesFor(ctx.paths, { guid: session.guid, dir });
  const moving = source !== undefined && source.folder !== target.folder;
  const stamp = moving ? stampFile(source.transcript) : null;
  // A project folder this P# makes goes again with its copy when the move does not happen.
  const madeFolder = moving && !pathExists(target.folder);
  if (moving) {
    try {
      if (pathExists(target.transcript) || pathExists(target.sidecar)) {
        throw new Error(`${target.transcript} or its folder is already there; move it away first`);
      }
      copySessionFiles(source, target, { madeFolder });
    } catch (error) {
      ctx.out.line(`  Could not copy the transcript: ${errorMessage(error)}`, "red");
      ctx.out.line("  The path is unchanged.", "red");
      return null;
    }
  }
  const destDir = sessionBackupDir(ctx.paths, session.dir);
  // The session's lines name its tool results under the old folder: they stay there too.
  const keepSidecar = moving && namesOwnSidecar(ctx, source);
  // Whether this P# moved the old copy aside: another window's P# or D# may move or delete it too.
  let movedAside = false;
  const step = await recheckThenAct(ctx, {
    guid: session.guid,
    registration: { registered: true, dir: session.dir },
    files: stamp === null ? [] : [stamp],
    copies: moving ? [source.transcript, target.transcript] : undefined,
  }, () => {
    if (moving) {
      if (compareCopies(source.transcript, target.transcript) !== "same") {
        throw new Error(`the copy at ${target.transcript} differs from ${source.transcript}`);
      }
      moveSessionAside(source.folder, session.guid, {
        destDir,
        join: ctx.paths.path.join,
        keepSidecar,
      });
      movedAside = true;
    }
    return {
      value: null,
      change: (r) =>
        findSession(r, session.guid) === undefined ? r : changeDir(r, session.guid, dir),
    };
  }).catch(refusalOf);
  // The old transcript moves first: once it has gone, the new copy is the live one.
  if (!step.done && movedAside) {
    ctx.out.line(`  The move stopped part way: ${step.reason}.`, "red");
    ctx.out.line(`  The transcript is at ${target.transcript}; the path is unchanged.`, "red");
    return null;
  }
  if (!step.done) {
    const kept = moving && await keepOrRemoveOurCopy(ctx, session.guid, { target, madeFolder });
    ctx.out.line(`  Nothing was moved: ${step.reason}.`, "red");
    if (kept) ctx.out.line(`  The transcript is now only at ${target.transcript}.`, "red");
    ctx.out.line("  The path is unchanged.", "red");
    return null;
  }
  if (moving) ctx.out.line(`  The old copy is kept in ${destDir}.`, "darkGray");
  if (source !== undefined) {
    stampNewFolder(ctx, {
      guid: session.guid,
      transcript: moving ? target.transcript : source.transcript,
      dir,
    });
  }
  recordLineage(ctx, {
    kind: "move",
    from: session.guid,
    to: session.guid,
    fromDir: session.dir,
    toDir: dir,
  });
  return step.registry;
}

/**
 * As claude's /cd and `claudecm move` do: a `relocated` record says the
 * session lives in `dir` now, for every reader that asks its transcript
 * (recover, the orphan scan, adopt). The row has changed already: a record
 * that cannot be written is said, not undone.
 */
function stampNewFolder(
  ctx: AppContext,
  { guid, transcript, dir }: { guid: string; transcript: string; dir: string },
): void {
  try {
    appendRelocatedRecord(transcript, { sessionId: guid, relocatedCwd: dir });
  } catch (error) {
    ctx.err.line(
      `  (the transcript does not say its new folder: ${errorMessage(error)})`,
      "darkGray",
    );
  }
}

/** Whether the transcript at `files` names files in its own sidecar there (DESIGN.md 24). */
function namesOwnSidecar(ctx: AppContext, files: SessionFiles): boolean {
  if (!isDirectory(files.sidecar)) return false;
  try {
    return namesPathsIn(files.transcript, files.sidecar, ctx.paths.path.sep);
  } catch {
    return true; // Cannot tell now: leaving it loses nothing.
  }
}

/**
 * After a refused P#, under the lock: keep the copy it made when that copy
 * has become the session's only one while the session is still in the list
 * (its old copy went by other means than this P#, not another window's P#,
 * which leaves its own copy, nor a D#, which removes the row); the copy is
 * the transcript now. Otherwise remove it: it duplicates a copy elsewhere,
 * or belongs to a session deleted meanwhile. Returns whether it was kept.
 */
async function keepOrRemoveOurCopy(
  ctx: AppContext,
  guid: string,
  { target, madeFolder }: { target: SessionFiles; madeFolder: boolean },
): Promise<boolean> {
  let kept = false;
  await changeRegistry(ctx, (registry) => {
    kept = findSession(registry, guid) !== undefined &&
      findSessionCopies(ctx.paths, guid).every((copy) => copy.transcript === target.transcript);
    if (!kept) removeOurCopy(target, { madeFolder });
    return registry;
  });
  return kept;
}

/** `<guid>.jsonl` and `<guid>/` into the (free) target names; all or nothing. */
function copySessionFiles(
  source: SessionFiles,
  target: SessionFiles,
  made: { madeFolder: boolean },
): void {
  try {
    Deno.mkdirSync(target.folder, { recursive: true });
    copySync(source.transcript, target.transcript);
    if (pathExists(source.sidecar)) copySync(source.sidecar, target.sidecar);
  } catch (error) {
    removeOurCopy(target, made);
    throw error;
  }
}

/**
 * The copy this P# made, when the move did not happen: the original is
 * untouched. The project folder goes too when this P# made it and it is still
 * empty (a claude that started writing there meanwhile keeps it).
 */
function removeOurCopy(target: SessionFiles, { madeFolder }: { madeFolder: boolean }): void {
  for (const path of [target.transcript, target.sidecar]) {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch {
      // Not made, or already gone.
    }
  }
  if (madeFolder) removeIfEmpty(target.folder);
}
