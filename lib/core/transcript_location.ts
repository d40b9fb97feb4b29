/**
 * Where a registered session's transcript is, the one answer every decision
 * about a "missing" session uses (list status, doctor, resume's offer to drop
 * a row). A transcript is missing only when it is found nowhere: not in its
 * registered DIR's project folder, and not in any other folder under the
 * projects root, where claude keeps appending to it when the session was
 * resumed from another folder (DESIGN.md 5.9). A folder or file that cannot
 * be read makes the answer `unreadable`, never `missing` (DESIGN.md 5.11).
 *
 * This is a lookup by id, not a search for "the newest transcript", so it
 * does not cross spec 14 rule 2.
 *
 * @module
 */

import { describeFsError, isNotFound, probePath } from "./fs_checks.ts";
import { type Paths, projectDirFor } from "./paths.ts";

/** The outcome of {@linkcode locateTranscript}. */
export type TranscriptLocation =
  | {
    status: "found";
    path: string;
    info: Deno.FileInfo;
    /** Whether it is in the registered DIR's project folder. */
    inOwnFolder: boolean;
  }
  /** `path`: where it belongs, in the registered DIR's project folder. */
  | { status: "missing"; path: string }
  /** `path`: what could not be read; `error`: why (`permission denied`, ...). */
  | { status: "unreadable"; path: string; error: string };

/** A folder's entry names, or why it could not be listed. */
type Listing = Set<string> | { missing: true } | { error: string };

/**
 * Memo for one run over many sessions: folder listings, and the projects
 * root read once (file name → folders holding it), so a listing of
 * thousands of rows lists each folder once.
 */
export interface LocateCache {
  listings: Map<string, Listing>;
  /** Each registered DIR's project folder: a realpath apiece, and many rows share a DIR. */
  projectDirs: Map<string, string>;
  projects?: ProjectsIndex;
}

interface ProjectsIndex {
  folders: Map<string, string[]>;
  /** Project folders (or the root itself) that could not be listed. */
  unreadable: Array<{ path: string; error: string }>;
}

/** A fresh cache. */
export function createLocateCache(): LocateCache {
  return { listings: new Map(), projectDirs: new Map() };
}

/** Find session `guid`'s transcript: its DIR's project folder first, then anywhere under projects. */
export function locateTranscript(
  paths: Paths,
  session: { guid: string; dir: string },
  cache: LocateCache = createLocateCache(),
): TranscriptLocation {
  const name = `${session.guid}.jsonl`;
  const ownFolder = cachedProjectDir(paths, session.dir, cache);
  const own = lookIn(paths, ownFolder, name);
  if (own.status === "found") return { ...own, inOwnFolder: true };
  if (own.status === "unreadable") return own;
  const projects = projectsIndex(paths, cache);
  for (const folder of projects.folders.get(name) ?? []) {
    if (folder === ownFolder) continue;
    const found = lookIn(paths, folder, name);
    if (found.status !== "missing") {
      return found.status === "found" ? { ...found, inOwnFolder: false } : found;
    }
  }
  // A folder we could not list may hold it: that is not knowing, not missing.
  for (const { path: folder, error } of projects.unreadable) {
    if (folder === paths.projectsDir) return { status: "unreadable", path: folder, error };
    if (folder === ownFolder) continue;
    const found = lookIn(paths, folder, name);
    if (found.status !== "missing") {
      return found.status === "found" ? { ...found, inOwnFolder: false } : found;
    }
  }
  return { status: "missing", path: paths.path.join(ownFolder, name) };
}

/**
 * Whether `session`'s transcript is in its registered DIR's project folder,
 * by one stat (and one realpath per DIR in `cache`): what every run asks of
 * every row before it looks further. A stat that fails for another reason
 * than "not found" counts as there: only a transcript surely gone from its
 * folder is worth a search.
 */
export function transcriptInOwnFolder(
  paths: Paths,
  session: { guid: string; dir: string },
  cache: LocateCache = createLocateCache(),
): boolean {
  const folder = cachedProjectDir(paths, session.dir, cache);
  return lookIn(paths, folder, `${session.guid}.jsonl`).status !== "missing";
}

/** `projectDirFor(paths, dir)`, memoised in `cache`. */
export function cachedProjectDir(paths: Paths, dir: string, cache: LocateCache): string {
  let folder = cache.projectDirs.get(dir);
  if (folder === undefined) {
    folder = projectDirFor(paths, dir);
    cache.projectDirs.set(dir, folder);
  }
  return folder;
}

/** The entries of `folder` (memoised); not-found and other errors kept apart. */
export function listFolder(folder: string, cache: LocateCache): Listing {
  let listing = cache.listings.get(folder);
  if (listing === undefined) {
    try {
      listing = new Set([...Deno.readDirSync(folder)].map((entry) => entry.name));
    } catch (error) {
      listing = isNotFound(error) ? { missing: true } : { error: describeFsError(error) };
    }
    cache.listings.set(folder, listing);
  }
  return listing;
}

type FolderLookup =
  | { status: "found"; path: string; info: Deno.FileInfo }
  | { status: "missing" }
  | { status: "unreadable"; path: string; error: string };

/**
 * `name` in `folder`, by a stat of the file: one system call where a listing
 * of its folder costs one per entry. A stat that says "not found" is sure,
 * even where the folder could not be listed.
 */
function lookIn(paths: Paths, folder: string, name: string): FolderLookup {
  const path = paths.path.join(folder, name);
  const probe = probePath(path);
  if (probe.kind === "file") return { status: "found", path, info: probe.info };
  if (probe.kind === "unreadable") return { status: "unreadable", path, error: probe.error };
  return { status: "missing" };
}

function projectsIndex(paths: Paths, cache: LocateCache): ProjectsIndex {
  if (cache.projects !== undefined) return cache.projects;
  const index: ProjectsIndex = { folders: new Map(), unreadable: [] };
  const root = listFolder(paths.projectsDir, cache);
  if (!(root instanceof Set)) {
    if ("error" in root) index.unreadable.push({ path: paths.projectsDir, error: root.error });
  } else {
    for (const entry of [...root].sort()) {
      const folder = paths.path.join(paths.projectsDir, entry);
      const listing = listFolder(folder, cache);
      if (listing instanceof Set) {
        for (const name of listing) {
          if (!name.endsWith(".jsonl")) continue;
          index.folders.set(name, [...index.folders.get(name) ?? [], folder]);
        }
      } else if ("error" in listing) {
        index.unreadable.push({ path: folder, error: listing.error });
      }
    }
  }
  cache.projects = index;
  return index;
}
