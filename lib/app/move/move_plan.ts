/**
 * What `claudecm move OLD NEW` would move, decided from the disk without
 * writing: the transcripts (and `<guid>/` folders) of every session that
 * belongs to OLD or a folder below it, each project key's `memory/`, the
 * vault's copies, the `projects` entries of `~/.claude.json`, the lines of
 * claude's prompt history (`history.jsonl`) and the rows. A transcript in a
 * folder that does not change (claude's one folder of every project with
 * CLAUDE_CODE_PROJECT_DIR_NAME, a key OLD and NEW share) stays there and gets
 * only claude's `relocated` record, registered or not.
 *
 * A session belongs where Claude Code says (lib/transcript/session_folder.ts:
 * a `/cd` record, else the first recorded cwd), else where its row says.
 * Subfolders are found from rows and recorded cwds only; a key prefix only
 * narrows which project folders are read (`work/app` and `work/app-web`
 * share one), it never decides.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import {
  type EntryRename,
  movedEntryKey,
  projectEntries,
} from "../../core/claude_json_projects.ts";
import { UserError } from "../../core/errors.ts";
import { relocateUnder } from "../../core/folder_match.ts";
import { isDirectory, pathExists, readFailure, subdirectoryNames } from "../../core/fs_checks.ts";
import { projectDirFor } from "../../core/paths.ts";
import { type FileStamp, stampFile } from "../../core/preconditions.ts";
import {
  encodeProjectKey,
  MAX_KEY_LENGTH,
  projectKey,
  resolveRealPath,
} from "../../core/project_key.ts";
import { archivedSessions, isSessionId, mainSessions, type Session } from "../../core/registry.ts";
import { findSessionCopies, sessionFilesIn } from "../../core/session_copies.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { readClaudeJson } from "../../store/claude_json_store.ts";
import { countHistoryMoves, historyFileOf } from "../../store/history_store.ts";
import { readSessionFolder, type SessionFolder } from "../../transcript/session_folder.ts";
import { listTranscripts } from "../../transcript/project_dir.ts";
import { linesNaming } from "../../transcript/path_mentions.ts";
import { typedPath } from "../folder_option.ts";
import { fileMove, memoryMoves, vaultMoves } from "./side_moves.ts";

/**
 * One file or folder to rename; or, `stamped`, a transcript that stays where
 * it is (`to` is `from`) and gets only claude's `relocated` record.
 */
export interface FileMove {
  kind: "transcript" | "sidecar" | "memory" | "vault" | "stamped";
  from: string;
  to: string;
  bytes: number;
  /** The session it belongs to; none for `memory/`. */
  guid?: string;
  /** A transcript's folder from now on, for the `relocated` record it gets before any rename. */
  relocatedCwd?: string;
}

/** One registry row whose DIR changes. */
export interface RowMove {
  guid: string;
  desc: string;
  archived: boolean;
  from: string;
  to: string;
}

/** Everything one move would do. */
export interface MovePlan {
  /** OLD and NEW, absolute. */
  from: string;
  to: string;
  /** In the order they are made: sidecars, memory, transcripts (and stamps), vault. */
  files: FileMove[];
  rows: RowMove[];
  /** `~/.claude.json` `projects` entries to rename. */
  settings: EntryRename[];
  /** Lines of claude's prompt history (history.jsonl) whose `project` moves. */
  historyLines: number;
  /** Entries left as they are: NEW's folder already has its own. */
  keptSettings: EntryRename[];
  /** Folders whose sessions move, old and new (for their sessions-index.json). */
  folders: EntryRename[];
  /** Each moving transcript as it was when planned: the move checks it is unchanged. */
  stamps: Map<string, FileStamp>;
  /** Sessions whose `<guid>/` folder moves while their row already names NEW: that row's folder. */
  settledRows: Map<string, string>;
  /**
   * Folders whose path changes but whose project key does not (`a-b` to `a/b`): their files
   * stay where they are, which is where claude looks from the new path too.
   */
  sameKey: EntryRename[];
  /**
   * Sessions whose lines name files in a `<guid>/` folder that moves (a saved tool output, a
   * subagent's transcript) by the old path: those paths stop resolving, as after claude's /cd.
   */
  stalePaths: Array<{ guid: string; lines: number }>;
  /** Project folders that also hold sessions of another folder with the same key. */
  staying: Array<{ folder: string; owner: string }>;
}

/** Why a move was refused: one line, exit 1, nothing written. */
export class MoveRefusedError extends UserError {
  constructor(message: string) {
    super(`not moved: ${message}`);
    this.name = "MoveRefusedError";
  }
}

/** Whether the plan has nothing left to do (a finished move run again). */
export function isEmptyPlan(plan: MovePlan): boolean {
  return plan.files.length === 0 && plan.rows.length === 0 && plan.settings.length === 0 &&
    plan.historyLines === 0;
}

/** Plan the move of what claude and claudecm keep about folder `from` to folder `to`. */
export function planMove(ctx: AppContext, request: { from: string; to: string }): MovePlan {
  const path = ctx.paths.path;
  const from = typedPath(ctx, request.from);
  const to = typedPath(ctx, request.to);
  if (!isDirectory(to)) throw new MoveRefusedError(`${to} is not a folder (move the folder first)`);
  const move = { from, to };
  const realFrom = resolveRealPath(from);
  // A row saved through a symlinked parent (the shell's $PWD, as the old scripts stored it)
  // names OLD only once both are resolved as claude resolved them.
  const under = (dir: string) =>
    relocateUnder(dir, move, ctx.os) ??
      relocateUnder(resolveRealPath(dir), { from: realFrom, to }, ctx.os);
  const registry = readRegistry(ctx.paths);
  const rows = [
    ...mainSessions(registry).map((session) => ({ session, archived: false })),
    ...archivedSessions(registry).map((session) => ({ session, archived: true })),
  ].filter(({ session }) => under(session.dir) !== undefined);
  const plan: MovePlan = {
    from,
    to,
    files: [],
    rows: rows.map(({ session, archived }) => ({
      guid: session.guid,
      desc: session.desc,
      archived,
      from: session.dir,
      to: under(session.dir)!,
    })).filter((row) => row.from !== row.to),
    settings: [],
    historyLines: 0,
    keptSettings: [],
    folders: [],
    stamps: new Map(),
    settledRows: new Map(),
    sameKey: [],
    stalePaths: [],
    staying: [],
  };
  // A registered session belongs to its row's folder (P# may have moved it), any other
  // to the folder its transcript records.
  const registered = new Map(
    [...mainSessions(registry), ...archivedSessions(registry)].map((s) => [s.guid, s.dir]),
  );
  const sidecars: FileMove[] = [];
  const transcripts: FileMove[] = [];
  const owners = new Set<string>([from, ...rows.map(({ session }) => session.dir)]);
  for (const folder of candidateFolders(ctx, from, rows.map((row) => row.session))) {
    const name = path.basename(folder);
    const files = listTranscripts(folder);
    for (const file of files) {
      const recorded = recordedFolder(file.path);
      const owner = registered.get(file.id) ?? recorded.folder ??
        (name === projectKey(from) ? from : undefined);
      let mapped = owner === undefined ? undefined : under(owner);
      if (
        mapped === undefined && owner !== undefined && !registered.has(file.id) &&
        recorded.relocated && relocateUnder(owner, { from: to, to }, ctx.os) !== undefined
      ) {
        // Stamped with NEW by a move cut short before its rename: the rename is left to do.
        mapped = owner;
      }
      if (owner === undefined || mapped === undefined) {
        // Another folder whose path has the same key: its sessions and this key's memory stay.
        if (owner !== undefined && projectKey(owner) === name) plan.staying.push({ folder, owner });
        continue;
      }
      if (mapped !== owner) owners.add(owner);
      const target = projectDirFor(ctx.paths, mapped);
      if (target === folder) {
        // The file stays: claude keeps every project's in this one folder
        // (CLAUDE_CODE_PROJECT_DIR_NAME), or OLD and NEW share a key. As claude's /cd does, a
        // `relocated` record says it is NEW's now; a stamped one (a rerun) needs none again.
        if (recorded.folder !== mapped) transcripts.push(stampOnly(plan, file, mapped));
        continue;
      }
      const source = sessionFilesIn(ctx.paths, folder, file.id);
      const dest = sessionFilesIn(ctx.paths, target, file.id);
      if (isDirectory(source.sidecar)) {
        sidecars.push(fileMove("sidecar", source.sidecar, dest.sidecar, file.id));
      }
      const stamp = stampFile(file.path);
      if (stamp !== null) plan.stamps.set(file.id, stamp);
      transcripts.push({
        kind: "transcript",
        from: file.path,
        to: dest.transcript,
        bytes: file.size,
        guid: file.id,
        // As claude's /cd does: a `relocated` record says where the session belongs now. Not
        // onto an identical copy already at the target, which the rename then replaces.
        ...(recorded.folder !== mapped && !pathExists(dest.transcript)
          ? { relocatedCwd: mapped }
          : {}),
      });
    }
    // A `<guid>/` folder with no transcript beside it: a move cut short after the transcript
    // went. It follows its session.
    const listed = new Set(files.map((file) => file.id));
    for (const guid of subdirectoryNames(folder)) {
      if (!isSessionId(guid) || listed.has(guid)) continue;
      const owner = registered.get(guid) ?? transcriptElsewhere(ctx, guid) ??
        (name === projectKey(from) ? from : undefined);
      if (owner === undefined) continue;
      let mapped = under(owner);
      const inNew = relocateUnder(owner, { from: to, to }, ctx.os) !== undefined;
      if (mapped === undefined && registered.has(guid) && inNew) {
        // Its row names NEW already (the rows were written, this folder's rename was not).
        mapped = owner;
        plan.settledRows.set(guid, owner);
      }
      if (mapped === undefined) continue;
      if (mapped !== owner) owners.add(owner);
      const target = projectDirFor(ctx.paths, mapped);
      if (target === folder) continue;
      const source = sessionFilesIn(ctx.paths, folder, guid).sidecar;
      sidecars.push(
        fileMove("sidecar", source, sessionFilesIn(ctx.paths, target, guid).sidecar, guid),
      );
    }
  }
  plan.files = [...sidecars, ...memoryMoves(ctx, plan, { owners, under }), ...transcripts];
  plan.stalePaths = stalePaths(ctx, sidecars, transcripts);
  plan.files.push(...vaultMoves(ctx, rows.map((row) => row.session), under));
  planSettings(ctx, plan);
  plan.historyLines = planHistory(ctx, plan);
  plan.folders = [...owners].flatMap((dir) => {
    const moved = under(dir);
    return moved === undefined || moved === dir ? [] : [{ from: dir, to: moved }];
  });
  plan.sameKey = plan.folders.filter((folder) => projectKey(folder.from) === projectKey(folder.to));
  return plan;
}

/** A transcript that stays in its folder and gets the `relocated` record naming `to`. */
function stampOnly(
  plan: MovePlan,
  file: { id: string; path: string; size: number },
  to: string,
): FileMove {
  const stamp = stampFile(file.path);
  if (stamp !== null) plan.stamps.set(file.id, stamp);
  const { id: guid, path, size: bytes } = file;
  return { kind: "stamped", from: path, to: path, bytes, guid, relocatedCwd: to };
}

/**
 * The project folders that may hold sessions of `from` or below: those whose
 * name starts as `from`'s key does (a subfolder's key extends its parent's,
 * up to the 200-character cut), the key folder of every row under `from`,
 * and the one folder of every project that CLAUDE_CODE_PROJECT_DIR_NAME names.
 */
function candidateFolders(ctx: AppContext, from: string, rows: Session[]): string[] {
  const stems = [from, resolveRealPath(from)].map((dir) =>
    encodeProjectKey(dir).slice(0, MAX_KEY_LENGTH)
  );
  const names = new Set(
    subdirectoryNames(ctx.paths.projectsDir).filter((n) => stems.some((s) => n.startsWith(s))),
  );
  for (const session of rows) names.add(projectKey(session.dir));
  if (ctx.paths.projectDirName !== undefined) names.add(ctx.paths.projectDirName);
  return [...names].sort().map((name) => ctx.paths.path.join(ctx.paths.projectsDir, name))
    .filter(isDirectory);
}

/** Each moving transcript that names files in a moving `<guid>/` folder, with how many lines do. */
function stalePaths(
  ctx: AppContext,
  sidecars: FileMove[],
  transcripts: FileMove[],
): Array<{ guid: string; lines: number }> {
  const folders = sidecars.map((sidecar) => sidecar.from + ctx.paths.path.sep);
  const found: Array<{ guid: string; lines: number }> = [];
  if (folders.length === 0) return found;
  for (const transcript of transcripts) {
    let lines: number;
    try {
      lines = linesNaming(transcript.from, folders);
    } catch (error) {
      throw new MoveRefusedError(readFailure(transcript.from, error));
    }
    if (lines > 0) found.push({ guid: transcript.guid!, lines });
  }
  return found;
}

/** The folder recorded by session `guid`'s transcript in another project folder, if any. */
function transcriptElsewhere(ctx: AppContext, guid: string): string | undefined {
  const copy = findSessionCopies(ctx.paths, guid)[0];
  return copy === undefined ? undefined : recordedFolder(copy.transcript).folder;
}

function recordedFolder(transcript: string): SessionFolder {
  try {
    return readSessionFolder(transcript);
  } catch (error) {
    throw new MoveRefusedError(readFailure(transcript, error));
  }
}

function planSettings(ctx: AppContext, plan: MovePlan): void {
  let bytes: Uint8Array | null;
  try {
    bytes = readClaudeJson(ctx.paths.claudeJsonFile);
  } catch (error) {
    throw new MoveRefusedError(readFailure(ctx.paths.claudeJsonFile, error));
  }
  if (bytes === null) return;
  const keys = new Set(projectEntries(bytes).map((entry) => entry.key));
  for (const key of keys) {
    const mapped = movedEntryKey(key, { from: plan.from, to: plan.to }, ctx.os);
    if (mapped === undefined || mapped === key) continue;
    const rename = { from: key, to: mapped };
    if (keys.has(mapped)) plan.keptSettings.push(rename);
    else plan.settings.push(rename);
  }
}

function planHistory(ctx: AppContext, plan: MovePlan): number {
  const file = historyFileOf(ctx.paths);
  try {
    return countHistoryMoves(file, { from: plan.from, to: plan.to }, ctx.os);
  } catch (error) {
    throw new MoveRefusedError(readFailure(file, error));
  }
}
