/**
 * From matching pieces of text to the sessions `find` shows: grouped by
 * session, ranked by relevance weighted by recency, each with what the
 * registry knows of it (its number and DESC) or else its own title.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { mainSessions, type Registry } from "../../core/registry.ts";
import { listNumbersOf } from "../session/list_numbers.ts";
import type { SearchRole, SessionFacts } from "../../transcript/search_text.ts";
import { titleOf } from "../../transcript/session_title.ts";
import { ownMachineNames } from "../bootstrap/machine_name.ts";
import { compareText } from "../../core/compare_text.ts";

/**
 * The folder a session belongs to, as Claude Code decides it (2.1.332; for
 * one transcript, transcript/session_folder.ts): where `/cd` last moved it,
 * else where it started.
 */
export function folderOfFacts(facts: SessionFacts): string | undefined {
  return facts.relocatedCwd ?? facts.cwd;
}

/** One shown match of a session. */
export interface FindMatch {
  role: SearchRole;
  timestamp: string | null;
  /** The matched text around the hit; the hit between the result's marks. */
  snippet: string;
}

/** One session found, as `find --json` prints it. */
export interface FindResult {
  sessionId: string;
  /** The session's folder: the registered DIR, else the folder its transcript records. */
  dir: string | null;
  title: string | null;
  /** Its number in `claudecm list`, or null when it is not in the main list. */
  registered: number | null;
  lastActivity: string | null;
  /** The main transcript. */
  transcript: string;
  matches: FindMatch[];
}

/** A session with matches, before it is ranked and described. */
export interface SessionMatches {
  sessionId: string;
  /** How many pieces of its text match. */
  count: number;
  /** Higher is better: {@linkcode relevanceOf} its matching pieces. */
  relevance: number;
  matches: FindMatch[];
  facts: SessionFacts;
  transcript: string;
}

/** Snippets shown per session. */
export const SNIPPETS_PER_SESSION = 3;

/** How much a session's age lowers its rank: halved at 30 days, a third at 60. */
const RECENCY_DAYS = 30;

/** A session's relevance from how many pieces of its text match (index and scan alike). */
export function relevanceOf(count: number): number {
  return 1 + Math.log(count);
}

/** A session's rank: its relevance weighted by how recently it was active. */
export function rankScore(
  found: Pick<SessionMatches, "relevance" | "facts">,
  now: Date,
): number {
  const time = Date.parse(found.facts.lastActivity ?? "");
  const ageDays = Number.isNaN(time) ? 365 : Math.max(0, (now.getTime() - time) / 86_400_000);
  return found.relevance / (1 + ageDays / RECENCY_DAYS);
}

/** Rank `sessions` (relevance weighted by recency), keep `limit`, and describe them from `registry`. */
export function rankSessions(
  ctx: AppContext,
  sessions: SessionMatches[],
  { registry, limit }: { registry: Registry; limit: number },
): FindResult[] {
  const now = ctx.now();
  const machine = ownMachineNames(ctx);
  const ranked = sessions.map((found) => ({ found, score: rankScore(found, now) }))
    .sort((a, b) => b.score - a.score || compareText(a.found.sessionId, b.found.sessionId))
    .slice(0, limit);
  const listed = mainSessions(registry);
  const archived = new Map(
    registry.archived.flatMap((e) => "session" in e ? [[e.session.guid, e.session]] : []),
  );
  const numbers = listNumbersOf(registry);
  return ranked.map(({ found }) => {
    const number = numbers.get(found.sessionId);
    const row = number !== undefined ? listed[number - 1] : archived.get(found.sessionId);
    return {
      sessionId: found.sessionId,
      dir: row?.dir ?? folderOfFacts(found.facts) ?? null,
      title: row?.desc ?? titleOf(found.facts, { machine }) ?? null,
      registered: number ?? null,
      lastActivity: found.facts.lastActivity ?? null,
      transcript: found.transcript,
      matches: found.matches,
    };
  });
}
