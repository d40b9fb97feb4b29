/**
 * Which folder under `<claude root>/projects/` holds a cwd's transcripts. The
 * computed key comes first, checked against the `cwd` its transcripts record
 * (two paths can share a key: `/a/b.c` and `/a/b-c`). When it is missing or
 * belongs to another folder, every project dir is tried on that recorded
 * `cwd`. Stale dirs left by other encodings of the same path (an older build
 * kept dots) are ignored whenever the computed one holds the folder's
 * sessions, and lose to the most recently active match otherwise.
 *
 * @module
 */

import { join } from "../core/path.ts";
import { projectKey } from "../core/project_key.ts";
import { folderMatcher } from "../core/folder_match.ts";
import { readDirOrEmpty, subdirectoryNames } from "../core/fs_checks.ts";
import { type OsName, type Paths, projectDirFor } from "../core/paths.ts";
import { transcriptSessionId } from "../core/registry.ts";
import { readHeadCwd, readTail } from "./tail.ts";

/** A top-level transcript of a project dir (subagent transcripts live in subfolders). */
export interface TranscriptFile {
  id: string;
  path: string;
  size: number;
  mtime: Date | null;
}

/** A resolved project dir. */
export interface ProjectDir {
  dir: string;
  /** `computed`: the key of the cwd; `matched`: found by the cwd its transcripts record. */
  how: "computed" | "matched";
}

/** How many of a dir's newest transcripts are checked for their recorded cwd. */
const SAMPLE = 5;

/** The project dir of `cwd`, or undefined when no prior session was recorded there. */
export function resolveProjectDir(
  paths: Paths,
  cwd: string,
  options: { os: OsName },
): ProjectDir | undefined {
  if (paths.projectDirName !== undefined) {
    // CLAUDE_CODE_PROJECT_DIR_NAME: every folder's sessions are in that one dir.
    const shared = projectDirFor(paths, cwd);
    return listTranscripts(shared).length > 0 ? { dir: shared, how: "computed" } : undefined;
  }
  const isCwd = folderMatcher(cwd, options.os);
  const computedKey = projectKey(cwd);
  const computed = paths.path.join(paths.projectsDir, computedKey);
  const verdict = belongsTo(computed, isCwd, SAMPLE);
  if (verdict.belongs !== false && verdict.transcripts > 0) {
    return { dir: computed, how: "computed" };
  }
  let best: { dir: string; activity: string } | undefined;
  for (const name of subdirectoryNames(paths.projectsDir)) {
    if (name === computedKey) continue;
    const dir = paths.path.join(paths.projectsDir, name);
    const found = belongsTo(dir, isCwd, 1);
    if (found.belongs === true && (best === undefined || found.activity > best.activity)) {
      best = { dir, activity: found.activity };
    }
  }
  return best && { dir: best.dir, how: "matched" };
}

/** The session transcripts (`<uuid>.jsonl`) at the top of a project dir, newest first by mtime. */
export function listTranscripts(dir: string): TranscriptFile[] {
  const files: TranscriptFile[] = [];
  for (const entry of readDirOrEmpty(dir)) {
    const id = transcriptSessionId(entry.name);
    if (!entry.isFile || id === null) continue;
    const path = join(dir, entry.name);
    try {
      const stat = Deno.statSync(path);
      files.push({ id, path, size: stat.size, mtime: stat.mtime });
    } catch {
      // Removed between listing and stat: not a candidate.
    }
  }
  return files.sort((a, b) => (b.mtime?.getTime() ?? 0) - (a.mtime?.getTime() ?? 0));
}

interface Verdict {
  /** true: a transcript was recorded in the cwd; false: only elsewhere; undefined: unknown. */
  belongs: boolean | undefined;
  transcripts: number;
  /** Latest timestamp seen among the matching transcripts checked. */
  activity: string;
}

function belongsTo(dir: string, isCwd: (path: string) => boolean, sample: number): Verdict {
  const files = listTranscripts(dir);
  const verdict: Verdict = { belongs: undefined, transcripts: files.length, activity: "" };
  for (const file of files.slice(0, sample)) {
    let recorded: string | undefined;
    let activity = "";
    try {
      const tail = readTail(file.path);
      activity = tail.lastTimestamp ?? "";
      // Where the session lives: where /cd or `claudecm move` put it, else where it started.
      recorded = tail.relocatedCwd ?? readHeadCwd(file.path) ?? tail.cwd;
    } catch {
      continue;
    }
    if (recorded === undefined) continue;
    if (isCwd(recorded)) {
      verdict.belongs = true;
      if (activity > verdict.activity) verdict.activity = activity;
    } else {
      verdict.belongs ??= false;
    }
  }
  return verdict;
}
