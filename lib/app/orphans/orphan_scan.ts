/**
 * Do-OrphanScan (spec 11.5), run before a resume: when the session's project
 * folder holds transcripts the registry does not account for, show them and
 * let the user pick one to resume, or quarantine one out of the way. Silent
 * when the folder is tidy.
 *
 * Quarantine goes to the quarantine root, `~/claude-conversation-backup/<leaf>/`
 * (spec 3.1), never to `~/.claudecm/backup/`, and takes only orphans: never the
 * registered session (nor any other registered one, whose row would then point
 * at nothing) and never one a running claude has open.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { sameFolder } from "../../core/folder_match.ts";
import { formatSize } from "../../core/format.ts";
import { type FolderTranscript, type OrphanRow, orphanRows } from "../../core/orphans.ts";
import { parseWholeNumber } from "../../core/numbers.ts";
import { leafName, projectDirFor } from "../../core/paths.ts";
import { liveSessionIds } from "../../core/pid_manifest.ts";
import { archivedSessions, mainSessions } from "../../core/registry.ts";
import { snapshotFolder } from "../../core/session_files.ts";
import { moveSessionAside } from "../../store/move_aside.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";

/** What the user chose: a transcript to resume instead, or null to go on as planned. */
export type OrphanScanChoice = { action: "select"; guid: string } | null;

/** Scan `dir`'s project folder around the registered session `registeredGuid`. */
export function orphanScan(
  ctx: AppContext,
  options: { dir: string; registeredGuid: string },
): OrphanScanChoice {
  const { dir, registeredGuid } = options;
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
    const quarantine = /^q\s*(\d+)$/i.exec(answer);
    if (quarantine === null) return null;
    const row = rows[Number(quarantine[1]) - 1];
    if (row === undefined) return null;
    if (!quarantineRow(ctx, row, { dir, registeredGuid })) return null;
  }
}

function scanRows(ctx: AppContext, dir: string): OrphanRow[] | null {
  const folder = projectDirFor(ctx.paths, dir);
  const files: FolderTranscript[] = [];
  for (const guid of snapshotFolder(folder, ctx.paths.path.join).keys()) {
    try {
      const stat = Deno.statSync(ctx.paths.path.join(folder, `${guid}.jsonl`));
      files.push({ guid, mtime: stat.mtime ?? new Date(0), sizeBytes: stat.size });
    } catch {
      // Gone since the listing.
    }
  }
  const registry = readRegistry(ctx.paths);
  return orphanRows(files, [...mainSessions(registry), ...archivedSessions(registry)], {
    dir,
    sameFolder: (a, b) => sameFolder(a, b, ctx.os),
  });
}

function showRows(
  ctx: AppContext,
  rows: OrphanRow[],
  options: { dir: string; registeredGuid: string },
): void {
  ctx.out.line();
  ctx.out.line(
    `  Multiple conversation files found (${leafName(ctx.paths, options.dir)}):`,
    "yellow",
  );
  ctx.out.line();
  const width = String(rows.length).length + 1;
  rows.forEach((row, index) => {
    const name = row.session === null
      ? "(orphan)"
      : row.session.desc + (row.wrongDirectory ? " (wrong directory)" : "");
    const mark = row.guid === options.registeredGuid ? " *" : "";
    ctx.out.line(
      `  ${`${index + 1}.`.padEnd(width)} ${formatTime(row.mtime)} ` +
        `${formatSize(row.sizeBytes).padStart(9)}  ${name}${mark}  ${row.guid}`,
    );
  });
  ctx.out.line();
  ctx.out.line("  * = the registered session; (orphan) = not in the session list");
  if (rows.some((row) => row.wrongDirectory)) {
    ctx.out.line("  (wrong directory) = in the list, but registered to another folder");
  }
  ctx.out.line(
    "  Actions: [number] to select, [q number] to quarantine to backup, " +
      "[Enter] to continue with registered session",
  );
}

/** Move one transcript to the quarantine root; false when refused. */
function quarantineRow(
  ctx: AppContext,
  row: OrphanRow,
  options: { dir: string; registeredGuid: string },
): boolean {
  if (row.guid === options.registeredGuid) {
    ctx.out.line("  That is the registered session; it cannot be quarantined.", "red");
    return false;
  }
  if (row.session !== null) {
    // Its row would point at nothing; the edit list archives or deletes registered sessions.
    ctx.out.line(
      `  That is the registered session '${row.session.desc}'; it cannot be quarantined.`,
      "red",
    );
    return false;
  }
  if (liveSessionIds(ctx.paths).has(row.guid)) {
    ctx.out.line("  That session is open in a claude window now; it cannot be quarantined.", "red");
    return false;
  }
  const leaf = leafName(ctx.paths, options.dir);
  const destDir = ctx.paths.path.join(ctx.paths.quarantineRoot, leaf);
  moveSessionAside(projectDirFor(ctx.paths, options.dir), row.guid, {
    destDir,
    join: ctx.paths.path.join,
  });
  syncSessionIndex(ctx.paths, options.dir, readRegistry(ctx.paths));
  ctx.out.line(`  Quarantined to backup: ${leaf}/${row.guid}`, "green");
  return true;
}

function formatTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
