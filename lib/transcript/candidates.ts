/**
 * The sessions of a project dir that `recover` can offer, most recently
 * active first. Activity is the timestamp of a transcript's last timestamped
 * line, read from its tail: mtimes lie (a copy, a sync, a backup restore
 * touches them). The live session is left out: the ids the caller names, and
 * any transcript whose tail is fresh conversation traffic from the last 60 s.
 *
 * @module
 */

import { readFailure } from "../core/fs_checks.ts";
import { listTranscripts } from "./project_dir.ts";
import { readHeadCwd, readTail } from "./tail.ts";
import { compareText } from "../core/compare_text.ts";

/** A session `recover` can rebuild. */
export interface Candidate {
  id: string;
  /** The user's title, else Claude's generated one. */
  title: string | null;
  lastPrompt: string | null;
  /** ISO timestamp of the last timestamped line; null if none. */
  lastActivity: string | null;
  branch: string | null;
  size: number;
  /** The last line is half-written. */
  truncated: boolean;
  path: string;
}

/** A transcript left out, and why. */
export interface Exclusion {
  id: string;
  /**
   * `requested`: named by --exclude or the environment; `live-tail`: looks
   * live; `other-folder`: it records another folder whose path shares this
   * project key (`/x/a-b` and `/x/a.b`); `unreadable`: its transcript could
   * not be read, so it cannot be ranked (DESIGN.md 5.11: said, never hidden).
   */
  reason: "requested" | "live-tail" | "other-folder" | "unreadable";
  /** With `unreadable`: why, naming the file and the fix. */
  error?: string;
}

/** Options for {@linkcode rankCandidates}. */
export interface RankOptions {
  /** Session ids to leave out (the caller's own session). */
  exclude: ReadonlySet<string>;
  now: Date;
  /** How recent a traffic-ending tail must be to count as live; 60 s by default. */
  liveWindowMs?: number;
  /**
   * Whether a folder a transcript records is the one asked about: another
   * folder's sessions can share its project key. Every transcript counts
   * when not given.
   */
  isFolder?: (cwd: string) => boolean;
}

/** The ranked candidates of `dir` and the transcripts excluded. */
export interface Ranking {
  candidates: Candidate[];
  excluded: Exclusion[];
}

const LIVE_WINDOW_MS = 60_000;

/** Rank the top-level transcripts of a project dir (subagent dirs are not transcripts). */
export function rankCandidates(dir: string, options: RankOptions): Ranking {
  const liveWindow = options.liveWindowMs ?? LIVE_WINDOW_MS;
  const ranked: { candidate: Candidate; time: number }[] = [];
  const excluded: Exclusion[] = [];
  for (const file of listTranscripts(dir)) {
    if (options.exclude.has(file.id)) {
      excluded.push({ id: file.id, reason: "requested" });
      continue;
    }
    let tail;
    try {
      tail = readTail(file.path);
    } catch (error) {
      // Gone since the listing: it is no session of this folder any more.
      if (error instanceof Deno.errors.NotFound) continue;
      excluded.push({ id: file.id, reason: "unreadable", error: readFailure(file.path, error) });
      continue;
    }
    if (options.isFolder !== undefined) {
      // Where the session lives: where it started, or where /cd moved it. Not the latest cwd: a
      // Bash `cd` inside the project records a subfolder.
      const folder = tail.relocatedCwd ?? headCwdOf(file.path);
      if (folder !== undefined && !options.isFolder(folder)) {
        excluded.push({ id: file.id, reason: "other-folder" });
        continue;
      }
    }
    const time = tail.lastTimestamp === undefined ? NaN : Date.parse(tail.lastTimestamp);
    if (tail.endsInTraffic && Math.abs(options.now.getTime() - time) < liveWindow) {
      excluded.push({ id: file.id, reason: "live-tail" });
      continue;
    }
    ranked.push({
      time: Number.isNaN(time) ? -Infinity : time,
      candidate: {
        id: file.id,
        title: tail.customTitle ?? tail.aiTitle ?? null,
        lastPrompt: tail.lastPrompt ?? null,
        lastActivity: Number.isNaN(time) ? null : new Date(time).toISOString(),
        branch: tail.gitBranch ?? null,
        size: file.size,
        truncated: tail.truncated,
        path: file.path,
      },
    });
  }
  ranked.sort((a, b) => b.time - a.time || compareText(a.candidate.id, b.candidate.id));
  return { candidates: ranked.map((r) => r.candidate), excluded };
}

function headCwdOf(path: string): string | undefined {
  try {
    return readHeadCwd(path);
  } catch {
    return undefined; // Unreadable now: it is not left out for a folder it may not record.
  }
}
