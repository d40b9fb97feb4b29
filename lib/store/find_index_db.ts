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
 * `INDEXED_ROLES`, find_index_schema.ts). The index keeps no copy of what was said
 * (snippets are read back from the transcript), so it stays small and text
 * removed from a transcript is gone from the index at its next update. Rows
 * go into the FTS table directly, in the writer's batched transactions (a
 * trigger made FTS5 do twice the work). WAL mode lets queries read while
 * a writer (holding `findIndexLockPath`, find_index_file.ts) brings it up to
 * date.
 *
 * @module
 */

import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { SearchDoc, SearchRole } from "../transcript/search_text.ts";
import { isWriteRefusal } from "../core/write_refusal.ts";
import { encodeProjectKey } from "../core/project_key.ts";
import { indexableText } from "../core/index_words.ts";
import { discardFindIndex, isCorruptDatabase } from "./find_index_file.ts";
import {
  boundChunks,
  docId,
  type DocPlace,
  type FileRecord,
  type FileState,
  FIND_INDEX_VERSION,
  type IndexedFile,
  SCHEMA,
  toIndexedFile,
} from "./find_index_schema.ts";

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

function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
