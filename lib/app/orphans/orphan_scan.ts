/**
 * Do-OrphanScan (spec 11.5), run before a resume: when the session's project
 * folder holds transcripts the registry does not account for, show them and
 * let the user pick one to resume, or quarantine one out of the way. Silent
 * when the folder is tidy.
 *
 * Each row shows what the transcript is (its title: the last custom title,
 * else the last AI title, else its first prompt), its last activity and its
 * size (issue 18 item 11). `q 1,3` or `q all` quarantine several in one
 * visit ({@linkcode quarantineOrphan}: orphans only, re-checked when acting);
 * never the registered session, nor any other registered one, whose row
 * would then point at nothing.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { quarantineOrphan } from "./quarantine.ts";
import { sameFolder } from "../../core/folder_match.ts";
import { formatMinute, formatSize } from "../../core/format.ts";
import { type FolderTranscript, type OrphanRow, orphanRows } from "../../core/orphans.ts";
import { parseWholeNumber } from "../../core/numbers.ts";
import { leafName, projectDirFor } from "../../core/paths.ts";
import { type FileStamp, stampFile } from "../../core/preconditions.ts";
import { archivedSessions, mainSessions, sessionsOfUnparsedLines } from "../../core/registry.ts";
import { snapshotFolder } from "../../core/session_files.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { removeDeadWritersTempsInProject } from "../../store/stale_temps.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";
import { isNoSessionTranscript, readSessionFacts } from "../../transcript/session_facts.ts";
import { titleOf } from "../../transcript/session_title.ts";
import { readSessionFolder } from "../../transcript/session_folder.ts";
import { ownMachineNames } from "../bootstrap/machine_name.ts";

/** What the user chose: a transcript to resume instead, or null to go on as planned. */
export type OrphanScanChoice = { action: "select"; guid: string } | null;

/** A row of the table with what the user saw of its file. */
interface ShownRow extends OrphanRow {
  stamp: FileStamp | null;
  title: string | null;
}

/** Scan `dir`'s project folder around the registered session `registeredGuid`. */
export async function orphanScan(
  ctx: AppContext,
  options: { dir: string; registeredGuid: string },
): Promise<OrphanScanChoice> {
  const { dir, registeredGuid } = options;
  // A P#, a move aside or an index sync killed mid-write left its unfinished copy here.
  removeDeadWritersTempsInProject(projectDirFor(ctx.paths, dir));
  while (true) {
    const rows = scanRows(ctx, dir);
    if (rows === null) return null;
    showRows(ctx, rows, { dir, registeredGuid });
    const answer = (ctx.prompter.ask("  Choice (Enter to continue): ") ?? "").trim();
    const number = parseWholeNumber(answer);
    if (number !== null) {
      const row = rows[number - 1];
      return row === undefined ? null : { action: "select", guid: row.guid };
    }
    const picked = quarantinePicks(answer, rows, registeredGuid);
    if (picked === null) return null;
    let moved = 0;
    for (const row of picked) {
      if (refusedAsRegistered(ctx, row, registeredGuid)) continue;
      if (await quarantineOrphan(ctx, row, { dir })) moved++;
    }
    if (moved === 0) return null;
    syncSessionIndex(ctx.paths, dir, readRegistry(ctx.paths));
  }
}

/** The rows `q 1,3` or `q all` names; null when the answer is not a quarantine. */
function quarantinePicks(
  answer: string,
  rows: ShownRow[],
  registeredGuid: string,
): ShownRow[] | null {
  const match = /^q\s*(all|\d+(?:\s*[,\s]\s*\d+)*)$/i.exec(answer);
  if (match === null) return null;
  if (/^all$/i.test(match[1])) {
    return rows.filter((row) => row.session === null && row.guid !== registeredGuid);
  }
  const numbers = [...new Set(match[1].split(/[,\s]+/).map(Number))];
  const picked = numbers.map((n) => rows[n - 1]);
  return picked.some((row) => row === undefined) ? null : picked as ShownRow[];
}

function scanRows(ctx: AppContext, dir: string): ShownRow[] | null {
  const folder = projectDirFor(ctx.paths, dir);
  const registry = readRegistry(ctx.paths);
  const listed = [
    ...mainSessions(registry),
    ...archivedSessions(registry),
    ...sessionsOfUnparsedLines(registry),
  ];
  const registered = new Set(listed.map((session) => session.guid));
  const files: FolderTranscript[] = [];
  const stamps = new Map<string, FileStamp>();
  for (const guid of snapshotFolder(folder, ctx.paths.path.join).keys()) {
    const stamp = stampFile(ctx.paths.path.join(folder, `${guid}.jsonl`));
    // Gone since the listing when null.
    if (stamp === null) continue;
    // A `claude -p` call or a conversation with no real prompt nobody registered is not a
    // session: nothing to warn about, as adopt offers neither.
    if (!registered.has(guid) && isNoSessionTranscript(stamp.path)) continue;
    stamps.set(guid, stamp);
    files.push({ guid, mtime: new Date(stamp.mtimeMs ?? 0), sizeBytes: stamp.size });
  }
  const rows = orphanRows(ofThisFolder(ctx, files, { folder, dir, listed }), listed, {
    dir,
    sameFolder: (a, b) => sameFolder(a, b, ctx.os),
  });
  return rows?.map((row) => {
    const stamp = stamps.get(row.guid) ?? null;
    return { ...row, stamp, title: row.session === null ? readTitle(ctx, stamp) : null };
  }) ?? null;
}

/**
 * With CLAUDE_CODE_PROJECT_DIR_NAME every folder's transcripts share one
 * project dir: only those of `dir` (its rows', and those recording it) are
 * this scan's; another folder's session is neither an orphan nor misplaced.
 */
function ofThisFolder(
  ctx: AppContext,
  files: FolderTranscript[],
  options: { folder: string; dir: string; listed: { guid: string; dir: string }[] },
): FolderTranscript[] {
  if (ctx.paths.projectDirName === undefined) return files;
  const rowDirs = new Map(options.listed.map((session) => [session.guid, session.dir]));
  const here = (folder: string | undefined) =>
    folder !== undefined && sameFolder(folder, options.dir, ctx.os);
  return files.filter((file) => {
    if (rowDirs.has(file.guid)) return here(rowDirs.get(file.guid));
    try {
      return here(
        readSessionFolder(ctx.paths.path.join(options.folder, `${file.guid}.jsonl`)).folder,
      );
    } catch {
      return false; // Unreadable: whose it is cannot be told, so it is not offered here.
    }
  });
}

/** What the orphan is, from its own transcript; null when it says nothing (or cannot be read). */
function readTitle(ctx: AppContext, stamp: FileStamp | null): string | null {
  if (stamp === null) return null;
  try {
    return titleOf(readSessionFacts(stamp.path), { machine: ownMachineNames(ctx) }) ?? null;
  } catch {
    return null;
  }
}

function showRows(
  ctx: AppContext,
  rows: ShownRow[],
  options: { dir: string; registeredGuid: string },
): void {
  ctx.out.line();
  ctx.out.line(
    `  Multiple conversation files found (${leafName(ctx.paths, options.dir)}):`,
    "yellow",
  );
  ctx.out.line();
  const width = String(rows.length).length + 1;
  ctx.out.line(`  ${"".padEnd(width)} ${"Last activity".padEnd(16)} ${"Size".padStart(9)}  Title`);
  rows.forEach((row, index) => {
    const name = row.session === null
      ? `(orphan) ${row.title ?? "(no title)"}`
      : row.session.desc + (row.wrongDirectory ? " (wrong directory)" : "");
    const mark = row.guid === options.registeredGuid ? " *" : "";
    ctx.out.line(
      `  ${`${index + 1}.`.padEnd(width)} ${formatMinute(row.mtime)} ` +
        `${formatSize(row.sizeBytes).padStart(9)}  ${name}${mark}  ${row.guid}`,
    );
  });
  ctx.out.line();
  ctx.out.line("  * = the registered session; (orphan) = not in the session list");
  if (rows.some((row) => row.wrongDirectory)) {
    ctx.out.line("  (wrong directory) = in the list, but registered to another folder");
  }
  ctx.out.line(
    "  Actions: [number] to select, [q number] to quarantine to backup " +
      "(q 1,3 or q all for several), [Enter] to continue with registered session",
  );
}

/** A registered row is never quarantined: its row would point at nothing. */
function refusedAsRegistered(ctx: AppContext, row: ShownRow, registeredGuid: string): boolean {
  if (row.guid === registeredGuid) {
    ctx.out.line("  That is the registered session; it cannot be quarantined.", "red");
    return true;
  }
  if (row.session === null) return false;
  // The edit list archives or deletes registered sessions.
  ctx.out.line(
    `  That is the registered session '${row.session.desc}'; it cannot be quarantined.`,
    "red",
  );
  return true;
}
