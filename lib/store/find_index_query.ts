/**
 * Queries on the content-search index: the best-matching pieces of text
 * (bm25), their highlighted snippets, and the indexed files of a session.
 *
 * @module
 */

import type { FindIndexDb, IndexedFile } from "./find_index_db.ts";
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
  /** How many pieces of text to rank at most. */
  limit: number;
}

/** One matching piece of text. */
export interface IndexHit {
  docId: number;
  sessionId: string;
  role: SearchRole;
  timestamp: string | null;
  /** bm25: lower is better (SQLite's sign). */
  score: number;
}

/** The best-matching pieces of text, best first. */
export function queryIndex(index: FindIndexDb, query: IndexQuery): IndexHit[] {
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
  params.push(query.limit);
  const rows = index.db.prepare(
    `SELECT d.id AS id, f.session_id AS session, d.role AS role, d.ts AS ts,
       bm25(docs_fts) AS score
     FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid JOIN files f ON f.id = d.file_id
     WHERE ${where.join(" AND ")}
     ORDER BY score LIMIT ?`,
  ).all(...params);
  return rows.map((row) => ({
    docId: Number(row.id),
    sessionId: String(row.session),
    role: String(row.role) as SearchRole,
    timestamp: row.ts === null ? null : String(row.ts),
    score: Number(row.score),
  }));
}

/** Highlighted snippets of the given pieces, the match between `open` and `close`. */
export function snippetsOf(
  index: FindIndexDb,
  match: string,
  docIds: readonly number[],
  marks: { open: string; close: string },
): Map<number, string> {
  // A JS number binds as REAL, and FTS5 ignores a rowid constraint that is not an integer.
  const statement = index.db.prepare(
    "SELECT snippet(docs_fts, 0, ?, ?, '…', 24) AS text FROM docs_fts " +
      "WHERE docs_fts MATCH ? AND rowid = CAST(? AS INTEGER)",
  );
  const found = new Map<number, string>();
  for (const id of docIds) {
    const row = statement.get(marks.open, marks.close, match, id);
    if (row !== undefined) found.set(id, String(row.text));
  }
  return found;
}

/** The indexed files of each session, main transcript first. */
export function filesOfSessions(
  index: FindIndexDb,
  sessionIds: readonly string[],
): Map<string, IndexedFile[]> {
  const all = index.files();
  const wanted = new Set(sessionIds);
  const found = new Map<string, IndexedFile[]>();
  for (const file of all.values()) {
    if (!wanted.has(file.sessionId)) continue;
    const list = found.get(file.sessionId) ?? [];
    list.push(file);
    found.set(file.sessionId, list);
  }
  for (const list of found.values()) list.sort((a, b) => Number(a.subagent) - Number(b.subagent));
  return found;
}
