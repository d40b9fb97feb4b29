/**
 * Claude Code's `sessions-index.json` (spec section 10). Claude Code stopped
 * reading and writing it around 2.1.30, so claudecm maintains an existing
 * index only and never creates one (DESIGN.md section 4).
 *
 * @module
 */

import type { Paths } from "./paths.ts";
import { projectDirFor } from "./paths.ts";
import { archivedSessions, mainSessions, type Registry, transcriptSessionId } from "./registry.ts";
import { isFile, readSettingsText } from "./fs_checks.ts";

/** One entry of the index; unknown fields of existing entries are kept. */
export interface SessionIndexEntry {
  sessionId: string;
  fullPath?: string;
  fileMtime?: number;
  created?: string;
  modified?: string;
  [field: string]: unknown;
}

/** The index file's content. */
export interface SessionIndex {
  version: number;
  entries: SessionIndexEntry[];
  originalPath?: string;
}

/** The index file some Claude versions kept in a project folder. */
export const SESSION_INDEX_FILE = "sessions-index.json";

/** The index in a Claude project folder, or null when absent or unreadable. */
export function readSessionIndex(paths: Paths, projectFolder: string): SessionIndex | null {
  try {
    const text = readSettingsText(paths.path.join(projectFolder, SESSION_INDEX_FILE));
    const parsed = JSON.parse(text);
    const entries = Array.isArray(parsed?.entries)
      ? parsed.entries.filter((entry: unknown) =>
        typeof (entry as SessionIndexEntry)?.sessionId === "string"
      )
      : [];
    return {
      version: 1,
      entries,
      originalPath: typeof parsed?.originalPath === "string" ? parsed.originalPath : undefined,
    };
  } catch {
    return null;
  }
}

/** The index file to write: where, and its full new text. */
export interface SessionIndexUpdate {
  path: string;
  text: string;
}

/**
 * Spec section 10: the index of `dir`'s project folder brought in line with
 * the transcripts on disk and the registry. Entries whose file is gone are
 * dropped, the rest get fresh times, missing ones are added. A registered
 * session's entry carries its DESC as `firstPrompt` and its DIR as
 * `projectPath` (step 7), kept entries included, so a wrong label is
 * corrected. Returns null when there is nothing to write: no index (claudecm
 * never creates one), no transcripts, or no change. Decides only; the
 * caller writes (lib/store/session_index_sync.ts).
 */
export function planSessionIndexSync(
  paths: Paths,
  dir: string,
  registry: Registry,
): SessionIndexUpdate | null {
  const folder = projectDirFor(paths, dir);
  const indexPath = paths.path.join(folder, SESSION_INDEX_FILE);
  if (!isFile(indexPath)) return null;
  const onDisk = transcriptsIn(paths, folder);
  if (onDisk.size === 0) return null;
  // An index that does not parse is rebuilt from the transcripts.
  const existing = readSessionIndex(paths, folder);
  const originalPath = existing?.originalPath ?? dir;
  const registered = new Map(
    [...mainSessions(registry), ...archivedSessions(registry)].map((s) => [s.guid, s]),
  );
  const label = (guid: string) => {
    const session = registered.get(guid);
    return session === undefined ? {} : { firstPrompt: session.desc, projectPath: session.dir };
  };
  const kept = (existing?.entries ?? []).flatMap((entry) => {
    const info = onDisk.get(entry.sessionId);
    if (info === undefined) return [];
    return [{
      ...entry,
      fileMtime: info.mtimeMs,
      modified: new Date(info.mtimeMs).toISOString(),
      ...label(entry.sessionId),
    }];
  });
  const known = new Set(kept.map((entry) => entry.sessionId));
  const added = [...onDisk].filter(([guid]) => !known.has(guid)).map(([guid, info]) => ({
    sessionId: guid,
    fullPath: info.path,
    fileMtime: info.mtimeMs,
    firstPrompt: registered.get(guid)?.desc ?? "",
    messageCount: 0,
    created: new Date(info.createdMs).toISOString(),
    modified: new Date(info.mtimeMs).toISOString(),
    gitBranch: "",
    projectPath: registered.get(guid)?.dir ?? originalPath,
    isSidechain: false,
  }));
  const index: SessionIndex = { version: 1, entries: [...kept, ...added], originalPath };
  const text = JSON.stringify(index, null, 2) + "\n";
  return text === readText(indexPath) ? null : { path: indexPath, text };
}

function readText(path: string): string | null {
  try {
    return readSettingsText(path);
  } catch {
    return null;
  }
}

interface TranscriptFile {
  path: string;
  mtimeMs: number;
  createdMs: number;
}

function transcriptsIn(paths: Paths, folder: string): Map<string, TranscriptFile> {
  const found = new Map<string, TranscriptFile>();
  for (const entry of Deno.readDirSync(folder)) {
    const guid = transcriptSessionId(entry.name);
    if (!entry.isFile || guid === null) continue;
    const path = paths.path.join(folder, entry.name);
    const stat = Deno.statSync(path);
    const mtimeMs = stat.mtime?.getTime() ?? Date.now();
    found.set(guid, { path, mtimeMs, createdMs: stat.birthtime?.getTime() ?? mtimeMs });
  }
  return found;
}
