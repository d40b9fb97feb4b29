/**
 * The content-search index, `~/.claudecm/find-index.db` (DESIGN.md 5.12):
 * SQLite FTS5 through the built-in `node:sqlite`. Derived data only: every
 * row can be rebuilt from the transcripts, so a database that is corrupt or
 * was written by another schema version is deleted and rebuilt, with a note.
 *
 * One row per transcript file (how far it was indexed, what identifies it,
 * a hash of the bytes indexed, the session facts read so far), one row per
 * piece of text saying where its line is in the transcript, and a
 * contentless FTS5 table over the text (tool output left out: see
 * {@linkcode INDEXED_ROLES}). The index keeps no copy of what was said
 * (snippets are read back from the transcript), so it stays small and text
 * removed from a transcript is gone from the index at its next update. Rows
 * go into the FTS table directly, in the writer's batched transactions (a
 * trigger made FTS5 do twice the work). WAL mode lets queries read while
 * a writer (holding {@linkcode findIndexLockPath}) brings it up to date.
 *
 * @module
 */

import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { SearchDoc, SearchRole, SessionFacts } from "../transcript/search_text.ts";
import { isNoRoom, isWriteRefusal, UserError } from "../core/errors.ts";
import { encodeProjectKey } from "../core/project_key.ts";
import { indexableText } from "../core/index_words.ts";

/** Bumped whenever the schema or what is indexed changes: older files are rebuilt. */
const FIND_INDEX_VERSION = "6";

/** SQLite's page cache for a query, in KiB (see {@linkcode FindIndexDb.open}). */
export const QUERY_CACHE_KB = 64 * 1024;
/** The memory map a query reads the index through, in bytes (see {@linkcode FindIndexDb.open}). */
export const QUERY_MMAP_BYTES = 256 * 1024 * 1024;

/** An index written with another schema: rebuilt, with a note that says so. */
class OtherVersionError extends Error {
  constructor(version: string) {
    super(`index version ${version}`);
  }
}

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

const SCHEMA = `
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
 * Whether an error says the database file is damaged or not a database at
 * all, or that our own tables are missing or broken in it (a crash with
 * `synchronous = OFF` may leave that).
 */
export function isCorruptDatabase(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /malformed|not a database|corrupt|file is encrypted|no such (table|column)|vtable constructor failed/i
    .test(message);
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

/** Whether an error says a write found no room (SQLITE_FULL, ENOSPC, a quota): `isNoRoom`. */
export function isDiskFull(error: unknown): boolean {
  return isNoRoom(error);
}

/** The lock a writer holds while it changes the index. */
export function findIndexLockPath(dbPath: string): string {
  return `${dbPath}.lock`;
}

/** The open index. */
export class FindIndexDb {
  readonly db: DatabaseSync;
  // Prepared on the first write: a query that finds the index up to date writes nothing.
  #insertDoc: StatementSync | undefined;
  #insertText = new Map<SearchRole, StatementSync>();

  private constructor(db: DatabaseSync) {
    this.db = db;
  }

  /**
   * Open (creating or rebuilding as needed) the index at `path`. Rebuilding
   * deletes files, so only a writer (which holds the index lock) creates or
   * rebuilds; a reader gets undefined for an index it cannot use.
   */
  static open(
    path: string,
    options: { writer: boolean; onNote?: (note: string) => void },
  ): FindIndexDb | undefined {
    try {
      return FindIndexDb.#openChecked(path, options.writer);
    } catch (error) {
      if (!options.writer) return undefined;
      // A disk that refuses writes (full, read-only, no permission) is not the index's fault:
      // keep it, and let the caller search without it.
      if (isWriteRefusal(error)) throw error;
      const why = error instanceof OtherVersionError
        ? "is from another version of claudecm"
        : isCorruptDatabase(error)
        ? "was damaged"
        : "could not be read";
      options.onNote?.(`The search index ${why}; rebuilding it (${path}).`);
      discardFindIndex(path);
      return FindIndexDb.#openChecked(path, true);
    }
  }

  static #openChecked(path: string, writer: boolean): FindIndexDb {
    const exists = fileExists(path);
    if (!exists && !writer) throw new Error("no index yet");
    const db = new DatabaseSync(path);
    try {
      // A query reads many doclist pages: a 64 MB page cache and a memory map (at most 256 MB, file
      // pages the OS can drop) halve a broad one.
      db.exec(
        `PRAGMA busy_timeout = 10000; PRAGMA cache_size = ${-QUERY_CACHE_KB}; ` +
          `PRAGMA mmap_size = ${QUERY_MMAP_BYTES}`,
      );
      // Derived data: a crash may lose the last transactions (their files are read again) and a
      // damaged file is rebuilt, so the writer skips fsync.
      if (writer) {
        db.exec(
          // secure_delete: a freed page of a re-read file keeps none of its old bytes.
          "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA secure_delete = FAST",
        );
      }
      const version = exists ? readVersion(db) : undefined;
      if (version !== FIND_INDEX_VERSION) {
        if (exists && version !== undefined) throw new OtherVersionError(version);
        if (exists && !isEmptyDatabase(db)) throw new Error("not a claudecm index");
        if (!writer) throw new Error("no index yet");
        db.exec(`BEGIN; ${SCHEMA}; COMMIT`);
        db.prepare("INSERT INTO meta(key, value) VALUES ('version', ?)").run(FIND_INDEX_VERSION);
      }
      return new FindIndexDb(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  close(): void {
    this.db.close();
  }

  /**
   * Every file the index knows, by path, with what tells whether it changed.
   * Only these columns: reading every column of every row took ten times as long.
   */
  files(): Map<string, FileState> {
    const rows = this.db.prepare("SELECT id, path, identity, size, mtime_ms, ctime_ms FROM files")
      .all();
    return new Map(rows.map((row) => [String(row.path), {
      id: Number(row.id),
      path: String(row.path),
      identity: String(row.identity),
      size: Number(row.size),
      mtimeMs: Number(row.mtime_ms),
      ctimeMs: Number(row.ctime_ms),
    }]));
  }

  /** The whole rows of the files with these ids, by path. */
  filesWithIds(ids: readonly number[]): Map<string, IndexedFile> {
    const found = new Map<string, IndexedFile>();
    for (const some of boundChunks(ids)) {
      const rows = this.filesWhere(`id IN (${some.map(() => "?").join(", ")})`, some);
      for (const file of rows) found.set(file.path, file);
    }
    return found;
  }

  /** The files whose rows meet `condition` (SQL on the files table, `?` bound to `params`). */
  filesWhere(condition: string, params: readonly (string | number)[]): IndexedFile[] {
    return this.db.prepare(`SELECT * FROM files WHERE ${condition}`).all(...params)
      .map(toIndexedFile);
  }

  /** Forget a file and its text. */
  dropFile(id: number): void {
    this.clearDocs(id);
    this.db.prepare("DELETE FROM files WHERE id = ?").run(id);
  }

  /** Drop a file's text, keeping its row (it is read again from the start). */
  clearDocs(id: number): void {
    const range = [docId(id, 0), docId(id + 1, 0) - 1n];
    this.db.prepare("DELETE FROM docs_fts WHERE rowid BETWEEN ? AND ?").run(...range);
    this.db.prepare("DELETE FROM docs WHERE id BETWEEN ? AND ?").run(...range);
  }

  /** Write a file's row; returns its id. */
  saveFile(file: FileRecord): number {
    const folder = file.facts.relocatedCwd ?? file.facts.cwd;
    const values = [
      file.path,
      file.sessionId,
      file.projectDir,
      file.subagent ? 1 : 0,
      file.identity,
      file.size,
      file.mtimeMs,
      file.ctimeMs,
      file.offset,
      file.prefixHash,
      file.nextDoc,
      JSON.stringify(file.facts),
      // The folder the session belongs to now (where `/cd` moved it, else where it started),
      // and that folder's project key (find_index_query.ts: a file moved into another key).
      folder ?? null,
      folder === undefined ? null : encodeProjectKey(folder),
      file.facts.lastActivity ?? null,
    ] as const;
    if (file.id === undefined) {
      return Number(
        this.db.prepare(
          `INSERT INTO files(path, session_id, project_dir, subagent, identity, size, mtime_ms,
            ctime_ms, offset, prefix_hash, next_doc, facts, cwd, folder_key, last_activity)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(...values).lastInsertRowid,
      );
    }
    this.db.prepare(
      `UPDATE files SET path = ?, session_id = ?, project_dir = ?, subagent = ?, identity = ?,
        size = ?, mtime_ms = ?, ctime_ms = ?, offset = ?, prefix_hash = ?, next_doc = ?, facts = ?, cwd = ?,
        folder_key = ?, last_activity = ?
        WHERE id = ?`,
    ).run(...values, file.id);
    return file.id;
  }

  /** Add a file's `n`-th piece of text, found at `place`. */
  addDoc(fileId: number, n: number, doc: SearchDoc, place: DocPlace): void {
    const id = docId(fileId, n);
    this.#insertDoc ??= this.db.prepare(
      "INSERT INTO docs(id, role, ts, line_at, line_length, part) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.#insertDoc.run(
      id,
      doc.role,
      doc.timestamp ?? null,
      place.lineAt,
      place.lineLength,
      place.part,
    );
    let insertText = this.#insertText.get(doc.role);
    if (insertText === undefined) {
      insertText = this.db.prepare(`INSERT INTO docs_fts(rowid, ${doc.role}) VALUES (?, ?)`);
      this.#insertText.set(doc.role, insertText);
    }
    insertText.run(id, indexableText(doc.text));
  }
}

function toIndexedFile(row: Record<string, unknown>): IndexedFile {
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

function readVersion(db: DatabaseSync): string | undefined {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
    .get();
  if (table === undefined) return undefined;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'version'").get();
  return row === undefined ? "unknown" : String(row.value);
}

function isEmptyDatabase(db: DatabaseSync): boolean {
  return db.prepare("SELECT count(*) AS n FROM sqlite_master").get()?.n === 0;
}

/** Delete the index and its side files (derived data: the next writer rebuilds it). */
export function discardFindIndex(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    try {
      if (Deno.lstatSync(file).isDirectory) {
        throw new UserError(`${file} is a folder where the search index belongs; move it away`);
      }
      Deno.removeSync(file);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
