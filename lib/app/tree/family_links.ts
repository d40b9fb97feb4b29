/**
 * Where `claudecm tree` learns how sessions are related: claude's own records
 * in every transcript it can find (claude's project folders, then claudecm's
 * backup folder, then the vault, one copy per session: `forkedFrom`,
 * `continued-in`, `fork-context-ref`, read by lib/transcript/lineage.ts,
 * only what changed since the last run: cached_lineage.ts) and
 * claudecm's lineage log (forks followed, `--fork-session` branches,
 * refreshes, trims, moves). Also where each session is now, for its marks.
 *
 * @module
 */

import type { FamilyLink, LinkType } from "../../core/family.ts";
import { type LineageEvent, readLineageEvents } from "../../store/lineage_log.ts";
import type { LineageRecord } from "../../transcript/lineage.ts";
import type { AppContext } from "../context.ts";
import { findSessionTranscripts, type SessionTranscripts } from "../session/session_transcripts.ts";
import { readSessionLineage } from "./cached_lineage.ts";

/** What the tree knows of every session it has heard of. */
export interface FamilyWorld {
  links: FamilyLink[];
  /** Each session's transcript: its path and where it sits. */
  transcripts: SessionTranscripts;
  /** The moves claudecm recorded, by session. */
  moves: Map<string, Array<{ from: string; to: string; at: string }>>;
}

const CLAUDECM_LINKS: Record<Exclude<LineageEvent["kind"], "move">, LinkType> = {
  fork: "fork",
  "fork-session": "fork-session",
  refresh: "refresh",
  trim: "trim",
};

/** Read every record of how sessions are related. */
export function readFamilyWorld(ctx: AppContext): FamilyWorld {
  const transcripts = findSessionTranscripts(ctx);
  const links: FamilyLink[] = [];
  for (const [id, records] of readSessionLineage(ctx, transcripts)) {
    for (const record of records) links.push(linkOf(id, record));
  }
  const moves = new Map<string, Array<{ from: string; to: string; at: string }>>();
  for (const event of readLineageEvents(ctx.paths)) {
    if (event.kind === "move") {
      if (event.fromDir !== undefined && event.toDir !== undefined) {
        moves.set(event.from, [
          ...moves.get(event.from) ?? [],
          { from: event.fromDir, to: event.toDir, at: event.at },
        ]);
      }
      continue;
    }
    links.push({
      from: event.from,
      to: event.to,
      type: CLAUDECM_LINKS[event.kind],
      recordedBy: "claudecm",
      at: event.at || undefined,
    });
  }
  return { links, transcripts, moves };
}

/** The link a record of session `id` makes. */
function linkOf(id: string, record: LineageRecord): FamilyLink {
  switch (record.kind) {
    case "forked-from":
      return { from: record.sessionId, to: id, type: "branch", recordedBy: "claude" };
    case "continued-in":
      return { from: id, to: record.sessionId, type: "continued-in", recordedBy: "claude" };
    case "fork-context-ref":
      return { from: record.sessionId, to: id, type: "subagent-fork", recordedBy: "claude" };
  }
}
