/**
 * Step 7 of the contract: the capsule, as data and as `--json` prints it:
 * session_id, records (each with action, outcome, status, divergence_note),
 * next_move and divergences, in that order, then where it all came from.
 * Divergences are listed whatever the scope: a scope narrows the records,
 * never the divergence summary.
 *
 * @module
 */

import type { NextMove } from "./next_move.ts";
import type { RecallSource } from "./source.ts";
import type { Status, TaggedRecord } from "./tag.ts";

/** Everything `recall` found, ready to render. */
export interface Capsule {
  sessionId: string;
  source: RecallSource;
  title?: string;
  /** The folder the session worked in (its last recorded cwd). */
  cwd?: string;
  branch: { recorded?: string; current?: string };
  lastActivity?: string;
  /** The transcript's final line is half-written. */
  truncated: boolean;
  /** A running claude has the session open: its last records may still be under way. */
  live: boolean;
  scope?: string;
  /** The records in scope, in transcript order. */
  records: TaggedRecord[];
  /** All records, scope or not. */
  total: number;
  nextMove: NextMove;
  /** Every diverged record, with whether it is in scope. */
  divergences: { tagged: TaggedRecord; inScope: boolean }[];
}

/** The record's id in the capsule. */
export function recordId(tagged: TaggedRecord): string {
  return `r${tagged.record.seq}`;
}

/** What diverged, in one line; null when the record did not diverge. */
export function divergenceNote(tagged: TaggedRecord): string | null {
  if (tagged.status !== "diverged") return null;
  const v = tagged.verification;
  return `expected ${v.expected}; found ${v.found}${v.note ? ` (${v.note})` : ""}`;
}

/** How many records of each status. */
export function countStatuses(records: TaggedRecord[]): Record<Status, number> {
  const counts: Record<Status, number> = {
    completed: 0,
    "in-progress": 0,
    blocked: 0,
    diverged: 0,
  };
  for (const t of records) counts[t.status]++;
  return counts;
}

/** The capsule as `--json` prints it. */
export function capsuleJson(capsule: Capsule): Record<string, unknown> {
  return {
    status: "ok",
    session_id: capsule.sessionId,
    records: capsule.records.map((t) => ({
      id: recordId(t),
      action: t.record.action,
      outcome: t.record.outcome,
      status: t.status,
      divergence_note: divergenceNote(t),
      kind: t.record.kind,
      tool: t.record.tool ?? null,
      reason: t.reason,
      result: t.record.result ?? null,
      paths: t.record.paths,
      line: t.record.line,
      timestamp: t.record.timestamp ?? null,
    })),
    next_move: capsule.nextMove,
    divergences: capsule.divergences.map(({ tagged, inScope }) => ({
      record: recordId(tagged),
      action: tagged.record.action,
      expected: tagged.verification.expected ?? null,
      found: tagged.verification.found ?? null,
      note: tagged.verification.note ?? null,
      in_scope: inScope,
    })),
    transcript: capsule.source.path,
    found_by: capsule.source.how,
    picked: capsule.source.picked ?? null,
    title: capsule.title ?? null,
    cwd: capsule.cwd ?? null,
    branch: {
      recorded: capsule.branch.recorded ?? null,
      current: capsule.branch.current ?? null,
    },
    last_activity: capsule.lastActivity ?? null,
    truncated: capsule.truncated,
    live: capsule.live,
    scope: capsule.scope ?? null,
    counts: countStatuses(capsule.records),
    records_total: capsule.total,
  };
}
