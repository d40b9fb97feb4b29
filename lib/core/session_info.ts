/**
 * What the list shows of a registered session (spec section 8): transcript
 * size and date, or, when the transcript is gone, a fallback date marked `*`.
 *
 * @module
 */

import { formatDateShort, formatSize, formatTokens } from "./format.ts";
import { type Paths, projectDirFor } from "./paths.ts";
import type { Session } from "./registry.ts";
import { readSessionIndex } from "./session_index.ts";

/** A session's display facts. */
export interface SessionInfo {
  status: "ok" | "missing";
  transcriptPath: string;
  /** Transcript size in bytes; null when missing. */
  sizeBytes: number | null;
  /** `1.5 MB`, or `(missing)`. */
  size: string;
  /** Last write of the transcript, or the fallback date; null when none. */
  date: Date | null;
  /** `Mar 13`, `Mar 13*` for a fallback, `--` for none. */
  dateText: string;
  dateIsFallback: boolean;
  /** Formatted tokens (`155K tok`, `--`), kept even when the transcript is gone. */
  tokensText: string;
}

/** Look up a session's transcript and format what the list shows. */
export function getSessionInfo(paths: Paths, session: Session, now: Date): SessionInfo {
  const folder = projectDirFor(paths, session.dir);
  const transcriptPath = paths.path.join(folder, `${session.guid}.jsonl`);
  const tokensText = formatTokens(session.tokens);
  const stat = statOrNull(transcriptPath);
  if (stat?.isFile) {
    const date = stat.mtime;
    return {
      status: "ok",
      transcriptPath,
      sizeBytes: stat.size,
      size: formatSize(stat.size),
      date,
      dateText: date ? formatDateShort(date, now) : "--",
      dateIsFallback: false,
      tokensText,
    };
  }
  const fallback = fallbackDate(paths, folder, session.guid);
  return {
    status: "missing",
    transcriptPath,
    sizeBytes: null,
    size: "(missing)",
    date: fallback,
    dateText: fallback ? `${formatDateShort(fallback, now)}*` : "--",
    dateIsFallback: fallback !== null,
    tokensText,
  };
}

/** Spec 8's chain: the subagent dir, the memory dir, then the index's `created`. */
function fallbackDate(paths: Paths, folder: string, guid: string): Date | null {
  for (const candidate of [paths.path.join(folder, guid), paths.path.join(folder, "memory")]) {
    const mtime = statOrNull(candidate)?.mtime;
    if (mtime) return mtime;
  }
  const created = readSessionIndex(paths, folder)?.entries
    .find((entry) => entry.sessionId === guid)?.created;
  const date = typeof created === "string" ? new Date(created) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}
