/**
 * Queries on the content-search index, in two steps that never drop a
 * session: how many pieces of text match in each session (every match is
 * counted: FTS5 filters the roles by column and the ids name their file, so
 * counting needs no join per match), then, for the sessions the caller
 * keeps, their latest matching pieces and where each sits in its transcript
 * (the index stores no text; the caller reads the snippet back).
 *
 * @module
 */

import type { FindIndexDb } from "./find_index_db.ts";
import {
  boundChunks,
  type DocPlace,
  INDEXED_ROLES,
  type IndexedFile,
} from "./find_index_schema.ts";
import type { SearchRole } from "../transcript/search_text.ts";
import { basename } from "../core/path.ts";

/** What to look for. */
export interface IndexQuery {
  /** An FTS5 match expression (built by the find flow from the user's terms). */
  match: string;
  roles: readonly SearchRole[];
  /** ISO time: only text written at or after it. */
  since?: string;
  /** Only sessions of this project dir or recorded working folder. */
  project?: {
    projectDir: string;
    cwds: string[];
    ignoreCase: boolean;
    /** The dir holds every folder's sessions (CLAUDE_CODE_PROJECT_DIR_NAME): only `cwds` tell. */
    shared?: boolean;
  };
}

/** A session with matches. */
export interface SessionCount {
  sessionId: string;
  /** Matching pieces of text. */
  count: number;
  /** The latest timestamp of any of its files. */
  lastActivity: string | null;
}

/** One matching piece of text of a kept session. */
export interface IndexHit extends DocPlace {
  sessionId: string;
  /** The transcript it is in. */
  path: string;
  role: SearchRole;
  timestamp: string | null;
}

/** Every session with a match, and how many pieces match in each. */
export function countSessions(index: FindIndexDb, query: IndexQuery): SessionCount[] {
  const { sql, params } = matchesOf(query);
  const project = projectFilter(query);
  const rows = index.db.prepare(
    // Not a materialized CTE of the matches: SQLite groups straight from FTS5's cursor, three
    // times faster for a word in every piece of text.
    `WITH per_file AS (
       SELECT f AS file_id, count(*) AS n FROM (SELECT id >> 32 AS f FROM (${sql})) GROUP BY f
     ),
     per_session AS (
       SELECT f.session_id AS session, sum(p.n) AS n
       FROM per_file p JOIN files f ON f.id = p.file_id
       ${project.sql === "" ? "" : `WHERE ${project.sql}`}
       GROUP BY f.session_id
     )
     SELECT s.session AS session, s.n AS n, max(f.last_activity) AS last
     FROM per_session s JOIN files f ON f.session_id = s.session
     GROUP BY s.session`,
  ).all(...params, ...project.params);
  return rows.map((row) => ({
    sessionId: String(row.session),
    count: Number(row.n),
    lastActivity: row.last === null ? null : String(row.last),
  }));
}

/** The latest `perSession` matching pieces of each of `sessionIds`, latest first. */
export function latestHits(
  index: FindIndexDb,
  query: IndexQuery,
  { sessionIds, perSession }: { sessionIds: readonly string[]; perSession: number },
): IndexHit[] {
  const { sql, params } = matchesOf(query);
  // Each session's hits are its own: the ids go in as many statements as binding needs.
  return boundChunks(sessionIds).flatMap((chunk) =>
    latestHitsOf(index, { sql, params }, chunk, perSession)
  );
}

function latestHitsOf(
  index: FindIndexDb,
  { sql, params }: { sql: string; params: string[] },
  sessionIds: readonly string[],
  perSession: number,
): IndexHit[] {
  const rows = index.db.prepare(
    `WITH kept AS (SELECT id, session_id, path FROM files
       WHERE session_id IN (${sessionIds.map(() => "?").join(", ")})),
     latest_in_file AS (
       SELECT id FROM (
         SELECT h.id AS id, row_number() OVER (PARTITION BY h.id >> 32 ORDER BY h.id DESC) AS n
         FROM (${sql}) h WHERE (h.id >> 32) IN (SELECT id FROM kept)
       ) WHERE n <= ?
     ),
     ranked AS (
       SELECT k.session_id AS session, k.path AS path, d.role AS role, d.ts AS ts,
         d.line_at AS line_at, d.line_length AS line_length, d.part AS part,
         row_number() OVER (PARTITION BY k.session_id ORDER BY d.ts DESC, d.id DESC) AS n
       FROM latest_in_file l JOIN docs d ON d.id = l.id JOIN kept k ON k.id = (l.id >> 32)
     )
     SELECT * FROM ranked WHERE n <= ? ORDER BY session, n`,
  ).all(...sessionIds, ...params, perSession, perSession);
  return rows.map((row) => ({
    sessionId: String(row.session),
    path: String(row.path),
    role: String(row.role) as SearchRole,
    timestamp: row.ts === null ? null : String(row.ts),
    lineAt: Number(row.line_at),
    lineLength: Number(row.line_length),
    part: Number(row.part),
  }));
}

/** The ids of the matching pieces: the roles as an FTS column filter, `since` through docs. */
function matchesOf(query: IndexQuery): { sql: string; params: string[] } {
  // A filter on every column still makes FTS5 read each match's positions: left out then.
  const everyRole = INDEXED_ROLES.every((role) => query.roles.includes(role));
  const match = everyRole ? query.match : `{${query.roles.join(" ")}} : (${query.match})`;
  if (query.since === undefined) {
    return { sql: "SELECT rowid AS id FROM docs_fts WHERE docs_fts MATCH ?", params: [match] };
  }
  return {
    sql: "SELECT docs_fts.rowid AS id FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid " +
      "WHERE docs_fts MATCH ? AND d.ts >= ?",
    params: [match, query.since],
  };
}

function projectFilter(query: IndexQuery): { sql: string; params: string[] } {
  if (query.project === undefined) return { sql: "", params: [] };
  const collate = query.project.ignoreCase ? " COLLATE NOCASE" : "";
  const cwds = query.project.cwds.map(() => `f.cwd = ?${collate}`);
  // A session's files are in its folder's project dir (claude moves them along on `/cd`). In it,
  // a file that records the folder is the project's; one whose folder does not make that key was
  // moved there (a subagent's file written before a `/cd`) and is the project's too; one whose
  // folder makes the same key is another folder's (`my-app` and `my_app` share a key).
  const key = basename(query.project.projectDir);
  if (query.project.shared) {
    return {
      sql: `(f.project_dir = ?${collate} AND (${cwds.join(" OR ")}))`,
      params: [query.project.projectDir, ...query.project.cwds],
    };
  }
  return {
    sql: `(f.project_dir = ?${collate} AND ` +
      `(f.cwd IS NULL OR ${cwds.join(" OR ")} OR f.folder_key IS NOT ?${collate}))`,
    params: [query.project.projectDir, ...query.project.cwds, key],
  };
}

/** The indexed files of each session, main transcript first. */
export function filesOfSessions(
  index: FindIndexDb,
  sessionIds: readonly string[],
): Map<string, IndexedFile[]> {
  const found = new Map<string, IndexedFile[]>();
  const files = boundChunks(sessionIds).flatMap((chunk) =>
    index.filesWhere(`session_id IN (${chunk.map(() => "?").join(", ")})`, chunk)
  );
  for (const file of files) {
    const list = found.get(file.sessionId) ?? [];
    list.push(file);
    found.set(file.sessionId, list);
  }
  for (const list of found.values()) list.sort((a, b) => Number(a.subagent) - Number(b.subagent));
  return found;
}
