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
import type { Paths } from "../../core/paths.ts";
import {
  discardFindIndex,
  FindIndexDb,
  findIndexLockPath,
  isCorruptDatabase,
} from "../../store/find_index_db.ts";
import {
  filesOfSessions,
  type IndexQuery,
  queryIndex,
  snippetsOf,
} from "../../store/find_index_query.ts";
import { withFileLock } from "../../store/lock.ts";
import { createProgress } from "../../ui/progress.ts";
import { type IndexStats, updateIndex } from "./index_update.ts";
import { MARK_CLOSE, MARK_OPEN } from "./snippet.ts";
import { rankScore, type SessionMatches } from "./results.ts";

/** Pieces of text ranked per query, before grouping into sessions. */
const CANDIDATE_ROWS = 5000;
/** Snippets shown per session. */
export const SNIPPETS_PER_SESSION = 3;
/** How long to wait for another claudecm's index update before searching without it. */
const LOCK_WAIT_MS = 30_000;

/** The index file, `~/.claudecm/find-index.db`. */
export function findIndexPath(paths: Paths): string {
  return paths.path.join(paths.cmHome, "find-index.db");
}

/** Search through the index; `query.limit` caps the sessions wanted. */
export async function searchIndex(
  ctx: AppContext,
  query: Omit<IndexQuery, "limit">,
  { sessionLimit }: { sessionLimit: number },
): Promise<{ sessions: SessionMatches[]; indexed: IndexStats }> {
  try {
    return await attempt(ctx, query, sessionLimit);
  } catch (error) {
    if (
      error instanceof Deno.errors.PermissionDenied ||
      /readonly database|unable to open database/i.test(errorMessage(error))
    ) {
      throw new UserError(
        `cannot write the search index in ${ctx.paths.cmHome} (${errorMessage(error)}); ` +
          "find --no-index searches without it",
      );
    }
    if (!isCorruptDatabase(error)) throw error;
    const path = findIndexPath(ctx.paths);
    ctx.err.line(`  The search index was damaged; rebuilding it (${path}).`, "yellow");
    await withFileLock(findIndexLockPath(path), () => discardFindIndex(path));
    return await attempt(ctx, query, sessionLimit);
  }
}

async function attempt(
  ctx: AppContext,
  query: Omit<IndexQuery, "limit">,
  sessionLimit: number,
): Promise<{ sessions: SessionMatches[]; indexed: IndexStats }> {
  const path = findIndexPath(ctx.paths);
  Deno.mkdirSync(ctx.paths.cmHome, { recursive: true });
  let indexed: IndexStats = { files: 0, bytes: 0, ms: 0, unreadable: [] };
  const index = await withFileLock(findIndexLockPath(path), ({ held }) => {
    if (!held) {
      ctx.err.line(
        "  Another claudecm is updating the search index; searching what it holds so far.",
        "yellow",
      );
      return FindIndexDb.open(path, { writer: false });
    }
    const db = FindIndexDb.open(path, {
      writer: true,
      onNote: (note) => ctx.err.line(`  ${note}`, "yellow"),
    })!;
    const progress = createProgress(ctx.err, "Indexing transcripts");
    try {
      indexed = updateIndex(db, ctx.paths.projectsDir, { onProgress: progress.update });
    } catch (error) {
      db.close();
      throw error;
    } finally {
      progress.done();
    }
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
    return { sessions: searchOpenIndex(index, query, { sessionLimit, now: ctx.now() }), indexed };
  } finally {
    index.close();
  }
}

/** The sessions an open, up-to-date index holds for `query`, best first, with snippets. */
export function searchOpenIndex(
  index: FindIndexDb,
  query: Omit<IndexQuery, "limit">,
  { sessionLimit, now }: { sessionLimit: number; now: Date },
): SessionMatches[] {
  const hits = queryIndex(index, { ...query, limit: CANDIDATE_ROWS });
  const bySession = new Map<string, typeof hits>();
  for (const hit of hits) {
    const list = bySession.get(hit.sessionId) ?? [];
    if (list.length < SNIPPETS_PER_SESSION) list.push(hit);
    bySession.set(hit.sessionId, list);
  }
  const files = filesOfSessions(index, [...bySession.keys()]);
  const sessions = [...bySession.entries()].map(([sessionId, list]) => {
    const sessionFiles = files.get(sessionId) ?? [];
    const main = sessionFiles.find((file) => !file.subagent) ?? sessionFiles[0];
    const lastActivity = sessionFiles.map((file) => file.facts.lastActivity ?? "")
      .sort().at(-1);
    return {
      sessionId,
      hits: list,
      relevance: -list[0].score,
      facts: { ...main?.facts, lastActivity: lastActivity || undefined },
      transcript: main?.path ?? "",
    };
  });
  // Snippets cost a match each: make them only for the sessions that will be shown.
  const shown = sessions.sort((a, b) => rankScore(b, now) - rankScore(a, now)).slice(
    0,
    sessionLimit,
  );
  const snippets = snippetsOf(
    index,
    query.match,
    shown.flatMap((session) => session.hits.map((hit) => hit.docId)),
    { open: MARK_OPEN, close: MARK_CLOSE },
  );
  return shown.map(({ hits, ...session }) => ({
    ...session,
    matches: hits.map((hit) => ({
      role: hit.role,
      timestamp: hit.timestamp,
      snippet: snippets.get(hit.docId) ?? "",
    })),
  }));
}
