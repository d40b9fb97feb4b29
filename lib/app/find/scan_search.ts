/**
 * `find --no-index` and `find --regex`: read every transcript, write nothing.
 * Files (scan_prefilter.ts: on two threads over a large history), then
 * lines, that cannot hold the search's longest word are skipped before
 * anything is parsed, which keeps a full scan close to `grep` speed. A session's
 * relevance is how many pieces of its text match; its snippets are the
 * latest matches (as through the index).
 *
 * @module
 */

import { basename, join } from "../../core/path.ts";
import { encodeProjectKey } from "../../core/project_key.ts";
import { isGoneOrClosed } from "../../core/fs_checks.ts";
import { listAllTranscripts } from "../../transcript/all_transcripts.ts";
import { type ByteSearch, lineHolds } from "../../transcript/raw_match.ts";
import { filesHolding, type PrefilterOptions } from "./scan_prefilter.ts";
import type { SearchDoc, SearchRole, SessionFacts } from "../../transcript/search_text.ts";
import {
  folderOfFacts,
  relevanceOf,
  type SessionMatches,
  SNIPPETS_PER_SESSION,
} from "./results.ts";
import { snippetAround } from "./snippet.ts";

/** What a scan looks for. */
export interface ScanQuery {
  /** Whether a piece of text matches. */
  matches: (text: string) => boolean;
  /** A word every match holds, looked for in raw bytes first (see raw_match.ts). */
  precheck?: ByteSearch;
  /** Marks the hits in a snippet (global flag). */
  highlight: RegExp;
  roles: readonly SearchRole[];
  since?: string;
  /** Only transcripts in this project dir, or recording one of these folders. */
  project?: {
    projectDir: string;
    cwds: string[];
    ignoreCase: boolean;
    /** The dir holds every folder's sessions (CLAUDE_CODE_PROJECT_DIR_NAME): only `cwds` tell. */
    shared?: boolean;
  };
}

interface Found {
  count: number;
  latest: SearchDoc[];
  projectDir: string;
  /** The first of the session's files read. */
  firstFile: string;
}

/** What reads transcripts: loaded when a file passes the byte pre-check, not before. */
async function loadReaders() {
  const [{ readSearchText }, { readSessionFacts }, { headSessionId }] = await Promise.all([
    import("../../transcript/search_text_file.ts"),
    import("../../transcript/session_facts.ts"),
    import("../../transcript/head_session.ts"),
  ]);
  // Read once a scan: --project asks a main transcript's facts, and so does its result.
  const known = new Map<string, SessionFacts>();
  const factsOf = (path: string): SessionFacts => {
    let facts = known.get(path);
    if (facts === undefined) {
      try {
        facts = readSessionFacts(path);
      } catch {
        facts = {};
      }
      known.set(path, facts);
    }
    return facts;
  };
  return { readSearchText, factsOf, headSessionId };
}

/** Scan every transcript under `projectsDir`. */
export async function scanSearch(
  projectsDir: string,
  query: ScanQuery,
  options: PrefilterOptions = {},
): Promise<SessionMatches[]> {
  const roles = new Set(query.roles);
  const found = new Map<string, Found>();
  let readers: Awaited<ReturnType<typeof loadReaders>> | undefined;
  const precheck = query.precheck;
  const all = listAllTranscripts(projectsDir);
  const files = precheck === undefined ? all : await filesHolding(all, precheck, options);
  for (const file of files) {
    try {
      readers ??= await loadReaders();
      const { project } = query;
      // As through the index (find_index_query.ts): the folder decides; a file moved into the
      // project dir (its folder makes another key) belongs to it.
      if (project) {
        if (!sameText(file.projectDir, project.projectDir, project)) continue;
        const folder = folderOfFacts(readers.factsOf(file.path));
        const recorded = folder !== undefined &&
          project.cwds.some((c) => sameText(c, folder, project));
        const inProject = project.shared ? recorded : folder === undefined || recorded ||
          !sameText(encodeProjectKey(folder), basename(file.projectDir), project);
        if (!inProject) continue;
      }
      const sessionId = file.sessionId ?? readers.headSessionId(file.path);
      if (sessionId === undefined) continue;
      const entry = found.get(sessionId) ??
        { count: 0, latest: [], projectDir: file.projectDir, firstFile: file.path };
      found.set(sessionId, entry);
      readers.readSearchText(file.path, (docs) => {
        for (const doc of docs) {
          if (!roles.has(doc.role)) continue;
          if (query.since !== undefined && (doc.timestamp ?? "") < query.since) continue;
          if (!query.matches(doc.text)) continue;
          entry.count++;
          keepLatest(entry.latest, doc);
        }
      }, { lineFilter: precheck && ((line) => lineHolds(precheck, line)) });
    } catch (error) {
      if (isGoneOrClosed(error)) continue;
      throw error;
    }
  }
  return [...found.entries()].filter(([, entry]) => entry.count > 0).map(([sessionId, entry]) => {
    // The main transcript, whether or not its own text matched (a subagent's may have); when
    // only subagent files are left, what they say of the session (as through the index).
    const transcript = join(entry.projectDir, `${sessionId}.jsonl`);
    const facts = readers!.factsOf(transcript);
    return {
      sessionId,
      count: entry.count,
      relevance: relevanceOf(entry.count),
      matches: entry.latest.map((doc) => ({
        role: doc.role,
        timestamp: doc.timestamp ?? null,
        snippet: snippetAround(doc.text, query.highlight),
      })),
      facts: facts.conversation ? facts : readers!.factsOf(entry.firstFile),
      transcript,
    };
  });
}

/**
 * Keep in `latest` the session's newest matches, newest first, by their
 * time: a session's files are read one after another (its subagents' after
 * it), so the order read is not the order written.
 */
function keepLatest(latest: SearchDoc[], doc: SearchDoc): void {
  // At an equal time the one read later is the newer: it goes first.
  const at = latest.findIndex((kept) => (kept.timestamp ?? "") <= (doc.timestamp ?? ""));
  if (at === -1) latest.push(doc);
  else latest.splice(at, 0, doc);
  if (latest.length > SNIPPETS_PER_SESSION) latest.pop();
}

function sameText(a: string, b: string, options: { ignoreCase: boolean }): boolean {
  return options.ignoreCase ? a.toLowerCase() === b.toLowerCase() : a === b;
}
