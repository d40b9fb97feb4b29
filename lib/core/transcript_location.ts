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
  /**
   * `path`: what could not be read; `error`: why (`permission denied`, ...).
   * `brokenLink`: it is a symbolic link whose target is gone, a transcript
   * as missing as one deleted (the vault's copy is offered), though only a
   * person's yes replaces the link.
   */
  | { status: "unreadable"; path: string; error: string; brokenLink?: true };

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
  /** Each registered DIR: whether it is gone (`isFolderGone`), looked at once. */
  goneFolders: Map<string, boolean>;
  projects?: ProjectsIndex;
}

interface ProjectsIndex {
  folders: Map<string, string[]>;
  /** Project folders (or the root itself) that could not be listed. */
  unreadable: Array<{ path: string; error: string }>;
}

/** A fresh cache. */
export function createLocateCache(): LocateCache {
  return { listings: new Map(), projectDirs: new Map(), goneFolders: new Map() };
}

/** Find session `guid`'s transcript: its DIR's project folder first, then anywhere under projects. */
export function locateTranscript(
  paths: Paths,
  session: { guid: string; dir: string },
  cache: LocateCache = createLocateCache(),
): TranscriptLocation {
  const name = `${session.guid}.jsonl`;
  const ownFolder = cachedProjectDir(paths, session.dir, cache);
  const own = listedWithout(cache, ownFolder, name)
    ? { status: "missing" as const }
    : lookIn(paths, ownFolder, name);
  if (own.status === "found") return { ...own, inOwnFolder: true };
  if (own.status === "unreadable") return own;
  const projects = projectsIndex(paths, cache);
  // Copies in several other folders (an old P#, a hand copy): the one with the most content,
  // never merely the first listed (DESIGN.md 5.15). A resume compares them whole first.
  let best: (FolderLookup & { status: "found" }) | undefined;
  for (const folder of projects.folders.get(name) ?? []) {
    if (folder === ownFolder) continue;
    const found = lookIn(paths, folder, name);
    if (found.status === "unreadable") return found;
    if (found.status === "found" && (best === undefined || holdsMore(found.info, best.info))) {
      best = found;
    }
  }
  if (best !== undefined) return { ...best, inOwnFolder: false };
  // A folder we could not list may hold it: that is not knowing, not missing.
  for (const { path: folder, error } of projects.unreadable) {
    if (folder === paths.projectsDir) return { status: "unreadable", path: folder, error };
    if (folder === ownFolder) continue;
    const found = lookIn(paths, folder, name);
    if (found.status !== "missing") {
      return found.status === "found" ? { ...found, inOwnFolder: false } : found;
    }
  }
  return { status: "missing", path: fileIn(paths, ownFolder, name) };
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

/**
 * Whether this run already listed `folder` and `name` was not in it, or found
 * no such folder. Once one transcript is missing, every project folder is
 * listed; a failed stat per later missing row would cost more than that
 * listing (each one builds an error), and the listing is this run's view of
 * the folder anyway. A folder that could not be listed answers nothing.
 */
function listedWithout(cache: LocateCache, folder: string, name: string): boolean {
  const listing = cache.listings.get(folder);
  if (listing === undefined) return false;
  return listing instanceof Set ? !listing.has(name) : "missing" in listing;
}

/**
 * `name` in `folder`, as `paths.path.join` gives it. The folders here come
 * from `paths` (normal already) and the names are file names, so for a
 * name with no separator that join is a concatenation; the join's walk,
 * interpreted in a cold process, cost ~2 ms over a 1,000-row list.
 */
function fileIn(paths: Paths, folder: string, name: string): string {
  const { sep } = paths.path;
  const plain = name !== "" && name !== "." && name !== ".." && !/[/\\]/.test(name) &&
    folder !== "" && !folder.endsWith(sep) && !folder.endsWith("/");
  return plain ? `${folder}${sep}${name}` : paths.path.join(folder, name);
}

type FolderLookup =
  | { status: "found"; path: string; info: Deno.FileInfo }
  | { status: "missing" }
  | { status: "unreadable"; path: string; error: string; brokenLink?: true };

/**
 * `name` in `folder`, by a stat of the file: one system call where a listing
 * of its folder costs one per entry. A stat that says "not found" is sure,
 * even where the folder could not be listed. Something there that is no
 * transcript (a folder, a link to nothing) is not "missing" (DESIGN.md 5.11):
 * it is said as what it is, and never leads to an offer to delete the row.
 */
function lookIn(paths: Paths, folder: string, name: string): FolderLookup {
  const path = fileIn(paths, folder, name);
  const probe = probePath(path);
  if (probe.kind === "file") return { status: "found", path, info: probe.info };
  if (probe.kind === "unreadable") return { status: "unreadable", path, error: probe.error };
  if (probe.kind === "directory") {
    return { status: "unreadable", path, error: "a folder stands where the transcript belongs" };
  }
  if (probe.kind === "other") return { status: "unreadable", path, error: "not a regular file" };
  if (isLinkToNothing(path)) {
    return { status: "unreadable", path, error: "a symbolic link to nothing", brokenLink: true };
  }
  return { status: "missing" };
}

/** Whether a copy with `a`'s stat likely holds more than one with `b`'s: longer, then newer. */
function holdsMore(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  if (a.size !== b.size) return a.size > b.size;
  return (a.mtime?.getTime() ?? 0) > (b.mtime?.getTime() ?? 0);
}

function isLinkToNothing(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false;
  }
}

function projectsIndex(paths: Paths, cache: LocateCache): ProjectsIndex {
  if (cache.projects !== undefined) return cache.projects;
  const index: ProjectsIndex = { folders: new Map(), unreadable: [] };
  const root = listFolder(paths.projectsDir, cache);
  if (!(root instanceof Set)) {
    if ("error" in root) index.unreadable.push({ path: paths.projectsDir, error: root.error });
  } else {
    for (const entry of [...root].sort()) {
      const folder = fileIn(paths, paths.projectsDir, entry);
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
