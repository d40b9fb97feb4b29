/**
 * `find` through the index: take the writer's lock, bring the index up to
 * date, release the lock, then query (readers never wait on a writer). A
 * damaged index is discarded and rebuilt once, with a note. When another
 * claudecm holds the lock for long (a first build of a large history), the
 * query runs on what is indexed so far, and says so.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { errorMessage, UserError } from "../../core/errors.ts";
import { isWriteRefusal } from "../../core/write_refusal.ts";
import { join } from "../../core/path.ts";
import type { Paths } from "../../core/paths.ts";
import { FindIndexDb } from "../../store/find_index_db.ts";
import {
  discardFindIndex,
  findIndexLockPath,
  isCorruptDatabase,
  isDiskFull,
} from "../../store/find_index_file.ts";
import {
  countSessions,
  filesOfSessions,
  type IndexHit,
  type IndexQuery,
  latestHits,
} from "../../store/find_index_query.ts";
import { docsOfLineAt } from "../../transcript/search_text.ts";
import { withFileLock } from "../../store/lock.ts";
import { createProgress } from "../../ui/progress.ts";
import { type IndexStats, updateIndex } from "./index_update.ts";
import type { ScanQuery } from "./scan_search.ts";
import { snippetAround } from "./snippet.ts";
import { rankScore, relevanceOf, type SessionMatches, SNIPPETS_PER_SESSION } from "./results.ts";
import { compareText } from "../../core/compare_text.ts";

/** How long to wait for another claudecm's index update before searching without it. */
const LOCK_WAIT_MS = 30_000;

/** The index file, `~/.claudecm/find-index.db`. */
export function findIndexPath(paths: Paths): string {
  return paths.path.join(paths.cmHome, "find-index.db");
}

/** A search through the index: the terms as FTS5 wants them, and as the tool-output scan does. */
export type IndexSearch = IndexQuery & {
  highlight: RegExp;
  /** How to find the terms in what tools answered, which is not indexed (scan_search.ts). */
  scan: Pick<ScanQuery, "matches" | "precheck">;
};

/** The index cannot be created or updated here (a read-only or full `~/.claudecm`, no permission). */
export class IndexUnwritable extends UserError {}

/** Search through the index, keeping `sessionLimit` sessions. */
export async function searchIndex(
  ctx: AppContext,
  query: IndexSearch,
  { sessionLimit }: { sessionLimit: number },
): Promise<{ sessions: SessionMatches[]; indexed: IndexStats }> {
  try {
    return await attempt(ctx, query, sessionLimit);
  } catch (error) {
    if (error instanceof IndexUnwritable) throw error;
    // Read-only, no permission, full, over quota: one path, the scan without the index.
    if (isWriteRefusal(error)) {
      throw new IndexUnwritable(
        `The search index cannot be written in ${ctx.paths.cmHome} (${errorMessage(error)})`,
      );
    }
    if (!isCorruptDatabase(error)) throw error;
    const path = findIndexPath(ctx.paths);
    ctx.err.line(`  The search index was damaged; rebuilding it (${path}).`, "yellow");
    // Only the lock's holder deletes: another claudecm may be writing it now.
    await withFileLock(findIndexLockPath(path), ({ held }) => {
      if (!held) {
        throw new UserError(
          "the search index is damaged and another claudecm is updating it; run find again " +
            "when it is done, or search with find --no-index meanwhile",
        );
      }
      discardFindIndex(path);
    }, { timeoutMs: LOCK_WAIT_MS });
    return await attempt(ctx, query, sessionLimit);
  }
}

async function attempt(
  ctx: AppContext,
  query: IndexSearch,
  sessionLimit: number,
): Promise<{ sessions: SessionMatches[]; indexed: IndexStats }> {
  const path = findIndexPath(ctx.paths);
  Deno.mkdirSync(ctx.paths.cmHome, { recursive: true });
  let indexed: IndexStats = { files: 0, bytes: 0, ms: 0, unreadable: [] };
  const index = await withFileLock(findIndexLockPath(path), async ({ held }) => {
    if (!held) {
      ctx.err.line(
        "  Another claudecm is updating the search index; searching what it holds so far.",
        "yellow",
      );
      return FindIndexDb.open(path, { writer: false });
    }
    const before = findIndexBytes(path);
    let db: FindIndexDb;
    try {
      db = FindIndexDb.open(path, {
        writer: true,
        onNote: (note) => ctx.err.line(`  ${note}`, "yellow"),
      })!;
    } catch (error) {
      throw isDiskFull(error) ? writeFailed(path, before) : error;
    }
    indexed = await refreshIndex(ctx, db, { path, before });
    return db;
  }, { timeoutMs: LOCK_WAIT_MS });
  if (indexed.unreadable.length > 0) {
    ctx.err.line(
      `  ${indexed.unreadable.length} transcript(s) could not be read and were left out ` +
        `(first: ${indexed.unreadable[0]}).`,
      "yellow",
    );
  }
  if (index === undefined) return { sessions: [], indexed };
  try {
    const toolOutput = query.roles.includes("tool_output")
      ? await scanToolOutput(ctx.paths.projectsDir, query)
      : [];
    return {
      sessions: searchOpenIndex(index, query, { sessionLimit, now: ctx.now(), toolOutput }),
      indexed,
    };
  } finally {
    index.close();
  }
}

/**
 * Bring the open index at `path` up to date (the caller holds its lock). A
 * write that fails for want of space is rolled back, the WAL truncated, and
 * when the index files still take more room than the `before` bytes they
 * took (or took none before), they are deleted (derived data): the disk is
 * left no fuller than this run found it. Closes `db` on any failure.
 */
export async function refreshIndex(
  ctx: AppContext,
  db: FindIndexDb,
  { path, before }: { path: string; before: number },
): Promise<IndexStats> {
  const progress = createProgress(ctx.err, "Indexing transcripts");
  try {
    return await updateIndex(db, ctx.paths.projectsDir, { onProgress: progress.update });
  } catch (error) {
    if (!isDiskFull(error)) {
      db.close();
      throw error;
    }
    try {
      db.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch {
      // No room to move the WAL's committed pages in: the files are deleted below.
    }
    db.close();
    throw writeFailed(path, before);
  } finally {
    progress.done();
  }
}

/** The bytes the index's files take on disk. */
export function findIndexBytes(path: string): number {
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`].reduce((sum, file) => {
    try {
      return sum + Deno.statSync(file).size;
    } catch {
      return sum;
    }
  }, 0);
}

/**
 * The one-line error of an index write that found no room. The index files
 * are deleted when they take more room than the `before` bytes, or when they
 * took none: a first build on a full disk leaves an empty `find-index.db`,
 * which holds nothing and is not this user's.
 */
function writeFailed(path: string, before: number): IndexUnwritable {
  if (before === 0 || findIndexBytes(path) > before) discardFindIndex(path);
  return new IndexUnwritable(`The search index ${path} cannot be written: the disk is full`);
}

/** What tools answered, scanned (it is not indexed): every session with a match, and its matches. */
async function scanToolOutput(projectsDir: string, query: IndexSearch): Promise<SessionMatches[]> {
  const { scanSearch } = await import("./scan_search.ts");
  return await scanSearch(projectsDir, {
    ...query.scan,
    highlight: query.highlight,
    roles: ["tool_output"],
    since: query.since,
    project: query.project,
  });
}

/**
 * The sessions an open, up-to-date index holds for `query`, best first, with
 * snippets: every matching session is ranked (as the scan ranks, by how many
 * pieces match, weighted by recency), then `sessionLimit` are kept. Tool
 * output matches, found by a scan, count with the indexed ones.
 */
export function searchOpenIndex(
  index: FindIndexDb,
  query: IndexSearch,
  { sessionLimit, now, toolOutput = [] }: {
    sessionLimit: number;
    now: Date;
    toolOutput?: SessionMatches[];
  },
): SessionMatches[] {
  const indexed = { ...query, roles: query.roles.filter((role) => role !== "tool_output") };
  const found = new Map<
    string,
    { count: number; lastActivity?: string; scanned?: SessionMatches }
  >();
  for (const session of indexed.roles.length === 0 ? [] : countSessions(index, indexed)) {
    found.set(session.sessionId, {
      count: session.count,
      lastActivity: session.lastActivity ?? undefined,
    });
  }
  for (const scanned of toolOutput) {
    const entry = found.get(scanned.sessionId);
    if (entry === undefined) {
      found.set(scanned.sessionId, {
        count: scanned.count,
        lastActivity: scanned.facts.lastActivity,
        scanned,
      });
    } else {
      entry.count += scanned.count;
      entry.scanned = scanned;
    }
  }
  const kept = [...found.entries()]
    .map(([sessionId, entry]) => ({
      sessionId,
      ...entry,
      relevance: relevanceOf(entry.count),
      facts: { lastActivity: entry.lastActivity },
    }))
    .map((session) => ({ session, score: rankScore(session, now) }))
    .sort((a, b) => b.score - a.score || compareText(a.session.sessionId, b.session.sessionId))
    .slice(0, sessionLimit)
    .map(({ session }) => session);
  const sessionIds = kept.map((session) => session.sessionId);
  const hits = indexed.roles.length === 0
    ? []
    : latestHits(index, indexed, { sessionIds, perSession: SNIPPETS_PER_SESSION });
  const files = filesOfSessions(index, sessionIds);
  return kept.map(({ sessionId, count, relevance, lastActivity, scanned }) => {
    const sessionFiles = files.get(sessionId) ?? [];
    const main = sessionFiles.find((file) => !file.subagent);
    // Only subagent files left: the session's own transcript is where it would be, and is not.
    const own = main?.path ??
      (sessionFiles[0] === undefined
        ? undefined
        : join(sessionFiles[0].projectDir, `${sessionId}.jsonl`));
    const matches = [
      ...hits.filter((hit) => hit.sessionId === sessionId).map((hit) => ({
        role: hit.role,
        timestamp: hit.timestamp,
        snippet: snippetOf(hit, query.highlight),
      })),
      ...scanned?.matches ?? [],
    ].sort((a, b) => compareText(b.timestamp ?? "", a.timestamp ?? ""))
      .slice(0, SNIPPETS_PER_SESSION);
    return {
      sessionId,
      count,
      relevance,
      facts: { ...(main?.facts ?? sessionFiles[0]?.facts ?? scanned?.facts), lastActivity },
      transcript: own ?? scanned?.transcript ?? "",
      matches,
    };
  });
}

/** A hit's snippet, read back from its transcript (the index keeps no text). */
function snippetOf(hit: IndexHit, highlight: RegExp): string {
  try {
    const text = docsOfLineAt(hit.path, hit, { withoutToolOutput: true })[hit.part]?.text;
    return text === undefined ? "" : snippetAround(text, highlight);
  } catch {
    return ""; // Gone since the update: the session is still a result.
  }
}
