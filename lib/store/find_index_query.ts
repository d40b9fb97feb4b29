/**
 * Queries on the content-search index. Sessions are ranked in SQL: each
 * session's best piece of text (bm25) weighted by how recently the session
 * was active, over every matching piece, so no session that matches is ever
 * left out of the order; only the caller's limit cuts the sorted sessions.
 * For the sessions kept, their best pieces and where each sits in its
 * transcript (the index stores no text; the caller reads the snippet back).
 *
 * @module
 */

import type { DocPlace, FindIndexDb, IndexedFile } from "./find_index_db.ts";
import type { SearchRole } from "../transcript/search_text.ts";

/** What to look for. */
export interface IndexQuery {
  /** An FTS5 match expression (built by the find flow from the user's terms). */
  match: string;
  roles: readonly SearchRole[];
  /** ISO time: only text written at or after it. */
  since?: string;
  /** Only sessions of this project dir or recorded working folder. */
  project?: { projectDir: string; cwds: string[]; ignoreCase: boolean };
}

/** How the sessions are cut and weighted. */
export interface RankOptions {
  /** Sessions kept, best first. */
  sessions: number;
  /** Best pieces kept per session. */
  perSession: number;
  /** Weighting by recency is relative to this time. */
  now: Date;
  /** A session's relevance is divided by 1 + its age in days over this. */
  recencyDays: number;
}

/** One matching piece of text of a kept session. */
export interface IndexHit extends DocPlace {
  sessionId: string;
  /** The transcript it is in. */
  path: string;
  role: SearchRole;
  timestamp: string | null;
}

/** A kept session: its relevance (higher is better) and best pieces, best first. */
export interface RankedSession {
  sessionId: string;
  relevance: number;
  hits: IndexHit[];
}

/** The best sessions for `query`, best first, each with its best pieces. */
export function rankSessionsInIndex(
  index: FindIndexDb,
  query: IndexQuery,
  rank: RankOptions,
): RankedSession[] {
  const where = ["docs_fts MATCH ?", `d.role IN (${query.roles.map(() => "?").join(", ")})`];
  const params: (string | number)[] = [query.match, ...query.roles];
  if (query.since !== undefined) {
    where.push("d.ts >= ?");
    params.push(query.since);
  }
  if (query.project !== undefined) {
    const collate = query.project.ignoreCase ? " COLLATE NOCASE" : "";
    const cwds = query.project.cwds.map(() => `f.cwd = ?${collate}`);
    where.push(`(f.project_dir = ?${collate} OR ${cwds.join(" OR ")})`);
    params.push(query.project.projectDir, ...query.project.cwds);
  }
  // julianday() of an ISO time; a session with no time counts as a year old (results.ts).
  const nowDays = rank.now.getTime() / 86_400_000 + 2440587.5;
  params.push(nowDays, nowDays, rank.recencyDays, rank.sessions, rank.perSession);
  const rows = index.db.prepare(
    `WITH hit AS MATERIALIZED (
       SELECT d.id AS id, f.session_id AS session, bm25(docs_fts) AS score
       FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid JOIN files f ON f.id = d.file_id
       WHERE ${where.join(" AND ")}
     ),
     best AS (SELECT session, -min(score) AS relevance FROM hit GROUP BY session),
     aged AS (
       SELECT b.session AS session, b.relevance AS relevance,
         (SELECT max(last_activity) FROM files WHERE session_id = b.session) AS last
       FROM best b
     ),
     kept AS (
       SELECT session, relevance FROM aged
       ORDER BY relevance / (1 + max(0, ? - coalesce(julianday(last), ? - 365)) / ?) DESC,
         session
       LIMIT ?
     ),
     top AS (
       SELECT h.id AS id, h.session AS session, k.relevance AS relevance,
         row_number() OVER (PARTITION BY h.session ORDER BY h.score, h.id) AS n
       FROM hit h JOIN kept k ON k.session = h.session
     )
     SELECT t.session AS session, t.relevance AS relevance, f.path AS path, d.role AS role,
       d.ts AS ts, d.line_at AS line_at, d.line_length AS line_length, d.part AS part
     FROM top t JOIN docs d ON d.id = t.id JOIN files f ON f.id = d.file_id
     WHERE t.n <= ?
     ORDER BY t.session, t.n`,
  ).all(...params);
  const sessions = new Map<string, RankedSession>();
  for (const row of rows) {
    const sessionId = String(row.session);
    const session = sessions.get(sessionId) ??
      { sessionId, relevance: Number(row.relevance), hits: [] };
    session.hits.push({
      sessionId,
      path: String(row.path),
      role: String(row.role) as SearchRole,
      timestamp: row.ts === null ? null : String(row.ts),
      lineAt: Number(row.line_at),
      lineLength: Number(row.line_length),
      part: Number(row.part),
    });
    sessions.set(sessionId, session);
  }
  return [...sessions.values()];
}

/** The indexed files of each session, main transcript first. */
export function filesOfSessions(
  index: FindIndexDb,
  sessionIds: readonly string[],
): Map<string, IndexedFile[]> {
  const found = new Map<string, IndexedFile[]>();
  if (sessionIds.length === 0) return found;
  const files = index.filesWhere(
    `session_id IN (${sessionIds.map(() => "?").join(", ")})`,
    sessionIds,
  );
  for (const file of files) {
    const list = found.get(file.sessionId) ?? [];
    list.push(file);
    found.set(file.sessionId, list);
  }
  for (const list of found.values()) list.sort((a, b) => Number(a.subagent) - Number(b.subagent));
  return found;
}
