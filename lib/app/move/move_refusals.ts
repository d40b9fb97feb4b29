/**
 * The reasons `claudecm move` refuses, checked before anything is written:
 * a NEW path sessions.txt cannot store (a `|` or a line break); OLD and NEW the same or one inside the other in a way a second run would
 * move again; a session under OLD still running; a session of OLD that a
 * line of sessions.txt names but that does not parse (that line cannot be
 * rewritten); a different file already at a target; NEW's project key
 * already holding another folder's sessions.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { nothingSaves } from "../save_check.ts";
import { type MovePlan, MoveRefusedError } from "./move_plan.ts";
import { relocateUnder, sameFolder } from "../../core/folder_match.ts";
import { liveHolders } from "../../platform/live_sessions.ts";
import { projectDirFor } from "../../core/paths.ts";
import { projectKey, resolveRealPath } from "../../core/project_key.ts";
import {
  archivedSessions,
  findSession,
  mainSessions,
  malformedLineNaming,
  validateSessionDir,
} from "../../core/registry.ts";
import { mergeConflict } from "../../store/merge_move.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { listTranscripts } from "../../transcript/project_dir.ts";
import { readSessionFolder } from "../../transcript/session_folder.ts";

/** Throw a {@linkcode MoveRefusedError} for the first reason `plan` must not run. */
export function refuseUnsafeMove(ctx: AppContext, plan: MovePlan): void {
  refuseUnstorable(plan);
  refuseLoop(ctx, plan);
  refuseLive(ctx, plan);
  refuseUnparsedRows(ctx, plan);
  refuseConflicts(plan);
  refuseKeyCollision(ctx, plan);
}

/** The rows are written last: a folder they cannot name must stop the move before any file moves. */
function refuseUnstorable(plan: MovePlan): void {
  for (const dir of [plan.to, ...plan.rows.map((row) => row.to)]) {
    try {
      validateSessionDir(dir);
    } catch (error) {
      throw new MoveRefusedError(error instanceof Error ? error.message : String(error));
    }
  }
}

/**
 * Files would move and the rows (written last) or the vault's copies could
 * not follow: refused before anything moves or is asked (a dry run, which
 * writes nothing, still shows its plan).
 */
export function refuseUnsaveable(ctx: AppContext, plan: MovePlan): void {
  if (plan.rows.length === 0 && plan.files.every((file) => file.kind !== "vault")) return;
  const refusal = nothingSaves(ctx);
  if (refusal !== null) throw new MoveRefusedError(refusal.message);
}

function refuseLoop(ctx: AppContext, plan: MovePlan): void {
  const { from, to } = plan;
  // Two folders that share a key (`a-b`, `a/b`) are not the same folder: their rows and
  // settings move, their files already stand where claude looks (move_plan.ts).
  if (sameFolder(from, to, ctx.os)) {
    throw new MoveRefusedError(`${from} and ${to} are the same folder`);
  }
  // As written or as resolved: OLD a symlink to a folder that holds NEW loops just the same.
  const realFrom = resolveRealPath(from);
  const intoOld = (dir: string) =>
    relocateUnder(dir, { from, to: from }, ctx.os) !== undefined ||
    relocateUnder(resolveRealPath(dir), { from: realFrom, to: realFrom }, ctx.os) !== undefined;
  if (intoOld(to)) {
    throw new MoveRefusedError(`${to} is inside ${from}: a second run would move it again`);
  }
  const looping = [...plan.rows, ...plan.folders, ...plan.settings].find((m) => intoOld(m.to));
  if (looping !== undefined) {
    throw new MoveRefusedError(
      `${looping.from} would move to ${looping.to}, inside ${from} again`,
    );
  }
}

/**
 * A session whose files would move but whose line does not parse: its line
 * keeps naming OLD, and each file move re-checks that line and stops. Said
 * before anything moves, with the line to fix.
 */
function refuseUnparsedRows(ctx: AppContext, plan: MovePlan): void {
  const registry = readRegistry(ctx.paths);
  for (const guid of new Set(plan.files.flatMap((file) => file.guid ?? []))) {
    if (findSession(registry, guid) !== undefined) continue;
    const line = malformedLineNaming(registry, guid);
    if (line === undefined) continue;
    throw new MoveRefusedError(
      `line ${line.lineNumber} of the session list names session ${guid} but does not parse ` +
        `(${line.reason}); fix that line (claudecm doctor shows it), then move again`,
    );
  }
}

function refuseLive(ctx: AppContext, plan: MovePlan): void {
  const guids = new Set([...plan.rows, ...plan.files].map((m) => m.guid));
  const move = { from: plan.from, to: plan.to };
  for (const manifest of liveHolders(ctx.paths)) {
    const here = guids.has(manifest.sessionId) ||
      (typeof manifest.cwd === "string" && relocateUnder(manifest.cwd, move, ctx.os) !== undefined);
    if (here) {
      throw new MoveRefusedError(
        `session ${manifest.sessionId} is running (claude pid ${manifest.pid} in ` +
          `${manifest.cwd}); exit it, then run the move again`,
      );
    }
  }
}

function refuseConflicts(plan: MovePlan): void {
  for (const file of plan.files) {
    if (file.kind === "stamped") continue;
    const conflict = mergeConflict(file.from, file.to);
    if (conflict !== null) {
      throw new MoveRefusedError(
        `${conflict[1]} already exists and differs from ${conflict[0]}; ` +
          "compare them and move one away, then run the move again",
      );
    }
  }
}

/**
 * Two folders whose paths encode to one key (`/w/my-app`, `/w/my.app`) share
 * one project folder: moving sessions there would mix them in claude's
 * picker, and a later move of either would carry the other's along.
 */
function refuseKeyCollision(ctx: AppContext, plan: MovePlan): void {
  // With CLAUDE_CODE_PROJECT_DIR_NAME every folder's sessions share one dir, by the user's choice.
  if (ctx.paths.projectDirName !== undefined) return;
  const move = { from: plan.from, to: plan.to };
  const registry = readRegistry(ctx.paths);
  const rows = [...mainSessions(registry), ...archivedSessions(registry)];
  for (const { from: old, to: dir } of plan.folders) {
    const target = projectDirFor(ctx.paths, dir);
    // The key does not change: nothing moves into it, so nothing is mixed that was not already.
    if (projectDirFor(ctx.paths, old) === target) continue;
    const key = ctx.paths.path.basename(target);
    const foreign = (owner: string) =>
      !sameFolder(owner, dir, ctx.os) && relocateUnder(owner, move, ctx.os) === undefined;
    const row = rows.find((session) => projectKey(session.dir) === key && foreign(session.dir));
    let other = row?.dir;
    for (const file of other === undefined ? listTranscripts(target) : []) {
      const owner = safeOwner(file.path);
      if (owner !== undefined && foreign(owner)) {
        other = owner;
        break;
      }
    }
    if (other !== undefined) {
      throw new MoveRefusedError(
        `${dir} and ${other} share the project key ${key}: claude would mix their sessions`,
      );
    }
  }
}

function safeOwner(transcript: string): string | undefined {
  try {
    return readSessionFolder(transcript).folder;
  } catch {
    return undefined;
  }
}
