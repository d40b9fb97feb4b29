/**
 * Step 5 of the contract: every record gets one status. `diverged` when the
 * live state no longer matches it; otherwise from the transcript: a call
 * with no result is `in-progress` (unless its change is on disk); a failed
 * step that a later attempt fixed is `completed`; a step that failed again
 * and again and never succeeded is `blocked`; one failure not retried is
 * `in-progress`. Failed look-ups (reads, searches) leave nothing to resume
 * and are `completed` with their error as the outcome.
 *
 * @module
 */

import type { WorkRecord } from "../../transcript/work_records.ts";
import type { Verification } from "./verify.ts";

/** The four statuses of the contract. */
export type Status = "completed" | "in-progress" | "blocked" | "diverged";

/** A record with its status and why. */
export interface TaggedRecord {
  record: WorkRecord;
  status: Status;
  /** Why this status, in a few words (a divergence's full story is in `verification`). */
  reason: string;
  verification: Verification;
  /** For blocked and failed steps: how many attempts failed in a row. */
  failures?: number;
  /** The session stopped while or right after this ran (no result, or a half-written end). */
  cutOff?: boolean;
}

const LOOKUPS = new Set(["read", "search", "cd"]);
/** Why a successful git step was not checked: its recorded output named nothing to check. */
const UNCHECKABLE: Partial<Record<string, string>> = {
  commit: "done, but its recorded output names no commit id to check",
  push: "done, but its recorded output names no branch to check",
};

/** Tag `records`; `truncated` marks the last tool record in-progress (claude died mid-write). */
export function tagRecords(
  records: WorkRecord[],
  { verifications, truncated }: { verifications: Map<number, Verification>; truncated: boolean },
): TaggedRecord[] {
  const steps = new Map<string, WorkRecord[]>();
  for (const record of records) {
    const attempts = steps.get(record.step);
    if (attempts) attempts.push(record);
    else steps.set(record.step, [record]);
  }
  const lastAnswered =
    records.findLast((r) => r.toolUseId !== undefined && r.outcome !== "no-result")?.seq ?? 0;
  const tagged = records.map((record) =>
    tagOne(record, {
      attempts: steps.get(record.step)!,
      verification: verifications.get(record.seq) ?? { verdict: "unchecked" },
      wentOn: record.seq < lastAnswered,
    })
  );
  if (truncated) {
    const last = tagged.findLast((t) => t.record.kind !== "todo" && t.record.kind !== "branch");
    if (last !== undefined && last.status !== "diverged") {
      last.status = "in-progress";
      last.cutOff = true;
      last.reason = "the transcript ends in a half-written line: claude stopped mid-write here";
    }
  }
  return tagged;
}

interface Context {
  /** The records of the same step, in order. */
  attempts: WorkRecord[];
  verification: Verification;
  /** A later call got its result: the session went on after this one. */
  wentOn: boolean;
}

function tagOne(record: WorkRecord, { attempts, verification, wentOn }: Context): TaggedRecord {
  const base = { record, verification };
  if (verification.verdict === "diverged") {
    return { ...base, status: "diverged", reason: "the live state differs from the record" };
  }
  switch (record.outcome) {
    case "success":
      return {
        ...base,
        status: "completed",
        reason: verification.verdict === "match"
          ? "verified against the live state"
          : verification.verdict === "superseded"
          ? verification.note ?? "superseded later in the session"
          : UNCHECKABLE[record.kind] ?? "done",
      };
    case "rejected":
      return { ...base, status: "completed", reason: "rejected by the user: not applied" };
    case "todo-completed":
      return { ...base, status: "completed", reason: "checked off on the todo list" };
    case "todo-in-progress":
      return { ...base, status: "in-progress", reason: "in progress on the todo list" };
    case "todo-pending":
      return { ...base, status: "in-progress", reason: "pending on the todo list: not started" };
    case "no-result":
    case "interrupted": {
      if (verification.verdict === "landed") {
        return { ...base, status: "completed", reason: verification.note ?? "on disk" };
      }
      const retry = laterSuccess(attempts, record);
      if (retry !== undefined) {
        return {
          ...base,
          status: "completed",
          reason: `a later attempt succeeded (r${retry.seq})`,
        };
      }
      const what = record.outcome === "interrupted"
        ? "interrupted by the user before it finished"
        : "no result recorded";
      return {
        ...base,
        status: "in-progress",
        cutOff: !wentOn,
        reason: wentOn
          ? `${what}; the session went on without it`
          : record.outcome === "interrupted"
          ? what
          : `${what}: it was still running when the session stopped`,
      };
    }
    case "error": {
      const retry = laterSuccess(attempts, record);
      if (retry !== undefined) {
        return { ...base, status: "completed", reason: `failed, then succeeded (r${retry.seq})` };
      }
      if (LOOKUPS.has(record.kind)) {
        return { ...base, status: "completed", reason: "the look-up failed; nothing to resume" };
      }
      const failures = attempts.filter((other) => other.outcome === "error").length;
      return failures >= 2
        ? {
          ...base,
          status: "blocked",
          reason: `failed ${failures} times, never succeeded`,
          failures,
        }
        : { ...base, status: "in-progress", reason: "failed once and was not retried", failures };
    }
  }
}

function laterSuccess(attempts: WorkRecord[], record: WorkRecord): WorkRecord | undefined {
  return attempts.find((other) => other.seq > record.seq && other.outcome === "success");
}
