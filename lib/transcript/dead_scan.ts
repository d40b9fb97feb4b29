/**
 * Find the sessions that died of context overflow under
 * `<claude root>/projects/*\/` (recover-session.md step 1). Only top-level
 * transcripts count: subagent transcripts live in `<session>/subagents/` and
 * old versions' `agent-*.jsonl` files are subagents too. A transcript is
 * looked at when it was modified in the last N days and is larger than
 * 10 KiB, and then only its end is read ({@linkcode checkDeath}), so a scan
 * costs a directory walk and one small read per recent file.
 *
 * @module
 */

import { join } from "../core/path.ts";
import { errorMessage } from "../core/errors.ts";
import { subdirectoryNames } from "../core/fs_checks.ts";
import { checkDeath, type DeathCheck, type DeathSignal } from "./death.ts";
import { listTranscripts, type TranscriptFile } from "./project_dir.ts";
import { compareText } from "../core/compare_text.ts";

/** A session that died of overflow. */
export interface DeadSession {
  id: string;
  path: string;
  /** The project folder's name under `projects/` (the encoded cwd). */
  projectDir: string;
  size: number;
  signal: DeathSignal;
  /** ISO timestamp of the last line that has one; the file's mtime when none does. */
  diedAt: string;
  cwd?: string;
  gitBranch?: string;
  slug?: string;
  /** The user's title, else Claude's generated one. */
  title?: string;
  notes: string[];
}

/** A transcript that could not be judged, and why. */
export interface SkippedTranscript {
  path: string;
  reason: string;
}

/** What a scan found. */
export interface DeadScan {
  /** Dead sessions, most recent death first. */
  dead: DeadSession[];
  /** Transcripts whose end was read. */
  examined: number;
  skipped: SkippedTranscript[];
}

/** Options for {@linkcode scanDeadSessions}. */
export interface DeadScanOptions {
  now: Date;
  /** Only transcripts modified in the last `days` days. */
  days: number;
  /** Only transcripts larger than this; 10 KiB by default. */
  minBytes?: number;
  /** Only this session, whatever its age and size. */
  session?: string;
}

/** The smallest transcript worth a look, as the spec's `find -size +10k`. */
const MIN_BYTES = 10 * 1024;
const DAY_MS = 86_400_000;

/** Scan every project dir under `projectsDir` for dead sessions. */
export function scanDeadSessions(projectsDir: string, options: DeadScanOptions): DeadScan {
  const scan: DeadScan = { dead: [], examined: 0, skipped: [] };
  const since = options.now.getTime() - options.days * DAY_MS;
  const minBytes = options.minBytes ?? MIN_BYTES;
  for (const project of subdirectoryNames(projectsDir)) {
    for (const file of listTranscripts(join(projectsDir, project))) {
      if (!wanted(file, options.session, since, minBytes)) continue;
      scan.examined++;
      let check: DeathCheck;
      try {
        check = checkDeath(file.path);
      } catch (error) {
        scan.skipped.push({ path: file.path, reason: `unreadable: ${errorMessage(error)}` });
        continue;
      }
      if (check.verdict === "unknown") {
        scan.skipped.push({ path: file.path, reason: check.notes.join("; ") });
      }
      if (check.verdict !== "dead" || check.signal === undefined) continue;
      scan.dead.push({
        id: file.id,
        path: file.path,
        projectDir: project,
        size: file.size,
        signal: check.signal,
        diedAt: check.lastTimestamp ?? (file.mtime ?? options.now).toISOString(),
        cwd: check.cwd,
        gitBranch: check.gitBranch,
        slug: check.slug,
        title: check.customTitle ?? check.aiTitle,
        notes: check.notes,
      });
    }
  }
  scan.dead.sort((a, b) => compareText(b.diedAt, a.diedAt) || compareText(a.id, b.id));
  return scan;
}

function wanted(
  file: TranscriptFile,
  session: string | undefined,
  since: number,
  minBytes: number,
): boolean {
  if (file.id.startsWith("agent-")) return false;
  if (session !== undefined) return file.id === session;
  return file.size > minBytes && (file.mtime?.getTime() ?? 0) >= since;
}
