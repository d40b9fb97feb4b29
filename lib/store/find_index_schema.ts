/**
 * The find index's tables and rows (DESIGN.md 5.12): the schema and its
 * version, a transcript's row as a record, and how a piece of text is
 * numbered and placed. The database itself is find_index_db.ts.
 *
 * @module
 */

import type { SearchRole, SessionFacts } from "../transcript/search_text.ts";

/** Bumped whenever the schema or what is indexed changes: older files are rebuilt. */
export const FIND_INDEX_VERSION = "6";

/** A transcript as the index knows it. */
export interface IndexedFile {
  id: number;
  path: string;
  sessionId: string;
  projectDir: string;
  subagent: boolean;
  identity: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Bytes indexed: the end of the last complete line read. */
  offset: number;
  /** The hash of the bytes before `offset` (prefix_hash.ts): a rewrite of any of them shows. */
  prefixHash: string;
  /** The number the file's next piece of text gets (see {@linkcode docId}). */
  nextDoc: number;
  facts: SessionFacts;
}

/** What tells whether a transcript changed since it was indexed. */
export type FileState = Pick<
  IndexedFile,
  "id" | "path" | "identity" | "size" | "mtimeMs" | "ctimeMs"
>;

/** A file row to write; `id` absent for a new file. */
export type FileRecord = Omit<IndexedFile, "id"> & { id?: number };

/** The tables of a new index. */
export const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL,
  project_dir TEXT NOT NULL,
  subagent INTEGER NOT NULL,
  identity TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  ctime_ms INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  prefix_hash TEXT NOT NULL,
  next_doc INTEGER NOT NULL,
  facts TEXT NOT NULL,
  cwd TEXT,
  folder_key TEXT,
  last_activity TEXT
);
CREATE INDEX files_session ON files(session_id);
CREATE TABLE docs(
  id INTEGER PRIMARY KEY,
  role TEXT NOT NULL,
  ts TEXT,
  line_at INTEGER NOT NULL,
  line_length INTEGER NOT NULL,
  part INTEGER NOT NULL
);
CREATE VIRTUAL TABLE docs_fts USING fts5(
  user, assistant, tool,
  content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
);
`;

/** Where a piece of text is: its line in the transcript, and its place among the line's pieces. */
export interface DocPlace {
  lineAt: number;
  lineLength: number;
  part: number;
}

/**
 * `items` in runs short enough to bind one per `?` in a statement (SQLite
 * binds at most 32,766 parameters to one).
 */
export function boundChunks<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += 10_000) chunks.push(items.slice(i, i + 10_000));
  return chunks;
}

/**
 * The roles indexed, one FTS column each: a search names the roles it wants
 * as a column filter, so FTS5 leaves the others out without a join. What the
 * tools answered is not indexed: it is three quarters of the text, searched
 * only on request (`find --tool-output` scans for it), and indexing it made
 * every build three times slower and the index three times larger.
 */
export const INDEXED_ROLES: readonly SearchRole[] = ["user", "assistant", "tool"];

/**
 * A piece of text's id: its file's id in the high bits, its number within
 * the file in the low 32, so the matches of a query group by file from the
 * ids alone, and a file's pieces are one range.
 */
export function docId(fileId: number, n: number): bigint {
  return (BigInt(fileId) << 32n) | BigInt(n);
}

/** A `files` row as a record (its facts parsed on first use). */
export function toIndexedFile(row: Record<string, unknown>): IndexedFile {
  // Parsed when asked for: an update reads every row and needs the facts of the changed ones only.
  const json = String(row.facts);
  let facts: SessionFacts | undefined;
  return {
    id: Number(row.id),
    path: String(row.path),
    sessionId: String(row.session_id),
    projectDir: String(row.project_dir),
    subagent: row.subagent === 1,
    identity: String(row.identity),
    size: Number(row.size),
    mtimeMs: Number(row.mtime_ms),
    ctimeMs: Number(row.ctime_ms),
    offset: Number(row.offset),
    prefixHash: String(row.prefix_hash),
    nextDoc: Number(row.next_doc),
    get facts(): SessionFacts {
      return facts ??= parseFacts(json);
    },
  };
}

function parseFacts(json: string): SessionFacts {
  try {
    return JSON.parse(json);
  } catch {
    return {}; // Left empty: the next full read fills it.
  }
}
