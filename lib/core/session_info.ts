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

/**
 * Memo shared across one listing: each directory's project folder and each
 * folder's entries. Listing a folder once is much cheaper than a failed stat
 * per missing file, which makes a 1,000-row list cost little over startup.
 */
export interface SessionInfoCache {
  folders: Map<string, string>;
  entries: Map<string, Set<string>>;
}

/** A fresh cache for one listing. */
export function createSessionInfoCache(): SessionInfoCache {
  return { folders: new Map(), entries: new Map() };
}

/** Look up a session's transcript and format what the list shows. */
export function getSessionInfo(
  paths: Paths,
  session: Session,
  now: Date,
  cache: SessionInfoCache = createSessionInfoCache(),
): SessionInfo {
  const folder = projectFolder(paths, session.dir, cache);
  const names = folderEntries(folder, cache);
  const transcriptPath = paths.path.join(folder, `${session.guid}.jsonl`);
  const tokensText = formatTokens(session.tokens);
  const stat = names.has(`${session.guid}.jsonl`) ? statOrNull(transcriptPath) : null;
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
  const fallback = fallbackDate(paths, folder, session.guid, names);
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
function fallbackDate(paths: Paths, folder: string, guid: string, names: Set<string>): Date | null {
  for (const name of [guid, "memory"]) {
    const mtime = names.has(name) ? statOrNull(paths.path.join(folder, name))?.mtime : null;
    if (mtime) return mtime;
  }
  if (!names.has("sessions-index.json")) return null;
  const created = readSessionIndex(paths, folder)?.entries
    .find((entry) => entry.sessionId === guid)?.created;
  const date = typeof created === "string" ? new Date(created) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

function projectFolder(paths: Paths, dir: string, cache: SessionInfoCache): string {
  let folder = cache.folders.get(dir);
  if (folder === undefined) {
    folder = projectDirFor(paths, dir);
    cache.folders.set(dir, folder);
  }
  return folder;
}

function folderEntries(folder: string, cache: SessionInfoCache): Set<string> {
  let names = cache.entries.get(folder);
  if (names === undefined) {
    names = new Set();
    try {
      for (const entry of Deno.readDirSync(folder)) names.add(entry.name);
    } catch {
      // No project folder: every session in it is missing.
    }
    cache.entries.set(folder, names);
  }
  return names;
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}
