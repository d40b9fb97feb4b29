/**
 * What the list shows of a registered session (spec section 8): transcript
 * size and date, or, when the transcript is gone, a fallback date marked `*`.
 * A session open in a claude that has not saved its first message has no
 * transcript yet and is new, not missing (issue 17 item 5): liveness is
 * decided before "missing", here for every listing as on every resume path.
 *
 * @module
 */

import { formatDateShort, formatSize, formatTokens } from "./format.ts";
import { isFolderGone } from "./fs_checks.ts";
import type { Paths } from "./paths.ts";
import type { Session } from "./registry.ts";
import { readSessionIndex } from "./session_index.ts";
import {
  cachedProjectDir,
  createLocateCache,
  listFolder,
  type LocateCache,
  locateTranscript,
} from "./transcript_location.ts";

/** A session's display facts. */
export interface SessionInfo {
  /**
   * `ok`: the transcript is on disk (in its DIR's project folder or another);
   * `new`: it is nowhere yet, and a claude is running on the session (no
   * first message yet); `missing`: it is nowhere and no claude has it open;
   * `unreadable`: a permission or other I/O error kept us from knowing
   * (never treated as missing).
   */
  status: "ok" | "new" | "missing" | "unreadable";
  /** Where the transcript is; where it belongs when missing or unreadable. */
  transcriptPath: string;
  /** For `unreadable`: what could not be read and why, e.g. `permission denied: /x`. */
  problem: string | null;
  /** Transcript size in bytes; null when not found. */
  sizeBytes: number | null;
  /** `1.5 MB`, `(new)`, `(missing)`, `(no access)` or `(broken link)`. */
  size: string;
  /** Last write of the transcript, or the fallback date; null when none. */
  date: Date | null;
  /** `Mar 13`, `Mar 13*` for a fallback, `--` for none. */
  dateText: string;
  dateIsFallback: boolean;
  /** Formatted tokens (`155K tok`, `--`), kept even when the transcript is gone. */
  tokensText: string;
  /** Its DIR is gone (nothing, or a file, there): `claudecm move` makes it follow. */
  folderGone: boolean;
}

/**
 * Memo shared across one listing: each folder's entries, and the projects
 * root read once. Listing a folder once is much cheaper than a failed stat
 * per missing file, which makes a 1,000-row list cost little over startup.
 */
export type SessionInfoCache = LocateCache;

/** A fresh cache for one listing. */
export function createSessionInfoCache(): SessionInfoCache {
  return createLocateCache();
}

/** What the list shows for a transcript that is a symbolic link to nothing. */
export const BROKEN_LINK = "(broken link)";

/** Options for {@linkcode getSessionInfo}. */
export interface SessionInfoOptions {
  /** Dates are shown relative to this. */
  now: Date;
  cache?: SessionInfoCache;
  /** A claude is running on the session now (`liveSessionIds`); false when not told. */
  live?: boolean;
}

/** Look up a session's transcript and format what the list shows. */
export function getSessionInfo(
  paths: Paths,
  session: Session,
  { now, cache = createSessionInfoCache(), live = false }: SessionInfoOptions,
): SessionInfo {
  const tokensText = formatTokens(session.tokens);
  const folderGone = cachedFolderGone(session.dir, cache);
  const located = locateTranscript(paths, session, cache);
  if (located.status === "found") {
    const date = located.info.mtime;
    return {
      status: "ok",
      transcriptPath: located.path,
      problem: null,
      sizeBytes: located.info.size,
      size: formatSize(located.info.size),
      date,
      dateText: date ? formatDateShort(date, now) : "--",
      dateIsFallback: false,
      tokensText,
      folderGone,
    };
  }
  const folder = cachedProjectDir(paths, session.dir, cache);
  const listing = listFolder(folder, cache);
  const names = listing instanceof Set ? listing : new Set<string>();
  const fallback = fallbackDate(paths, folder, session.guid, names);
  const unreadable = located.status === "unreadable";
  const status = unreadable ? "unreadable" : live ? "new" : "missing";
  return {
    status,
    transcriptPath: unreadable ? paths.path.join(folder, `${session.guid}.jsonl`) : located.path,
    problem: unreadable ? `${located.error}: ${located.path}` : null,
    sizeBytes: null,
    size: unreadable && located.brokenLink
      ? BROKEN_LINK
      : { unreadable: "(no access)", new: "(new)", missing: "(missing)" }[status],
    date: fallback,
    dateText: fallback ? `${formatDateShort(fallback, now)}*` : "--",
    dateIsFallback: fallback !== null,
    tokensText,
    folderGone,
  };
}

/** Whether `dir` is gone, looked at once per listing: many rows share a folder. */
function cachedFolderGone(dir: string, cache: SessionInfoCache): boolean {
  let gone = cache.goneFolders.get(dir);
  if (gone === undefined) {
    gone = isFolderGone(dir);
    cache.goneFolders.set(dir, gone);
  }
  return gone;
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

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}
