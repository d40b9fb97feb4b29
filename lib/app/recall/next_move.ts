/**
 * Step 6 of the contract: one concrete next move, from the in-progress and
 * blocked records that no unresolved divergence stands in the way of (a
 * record on a file that diverged, or a git step when the branch or a commit
 * diverged). Priority: what was running when the session stopped, then a
 * blocked step, then a step that failed once, then the todo in progress,
 * then the next pending todo. When nothing is left, the move is to resolve
 * the first divergence, or to pick up from the user's last request.
 *
 * @module
 */

import { oneLine } from "../../transcript/tools.ts";
import type { TaggedRecord } from "./tag.ts";

/** The move the capsule proposes. */
export interface NextMove {
  /** One sentence: what to do. */
  action: string;
  /** The record it comes from, e.g. `r12`; null for a fallback move. */
  record: string | null;
  /** Why this one. */
  reason: string;
}

const GIT_KINDS = new Set(["commit", "push", "branch"]);

/** Choose the next move among `candidates` (in scope), knowing every divergence. */
export function chooseNextMove(
  candidates: TaggedRecord[],
  { all, lastAsk }: { all: TaggedRecord[]; lastAsk: string | undefined },
): NextMove {
  const diverged = all.filter((t) => t.status === "diverged");
  const open = candidates.filter((t) => t.status === "in-progress" || t.status === "blocked");
  const free = open.filter((t) => blockerOf(t, diverged) === undefined);
  const best = [...free].sort((a, b) => rank(a) - rank(b) || order(a, b))[0];
  if (best !== undefined) return moveFor(best);
  const stuck = open[0];
  const blocker = stuck === undefined
    ? candidates.find((t) => t.status === "diverged")
    : blockerOf(stuck, diverged);
  if (blocker !== undefined) {
    const v = blocker.verification;
    return {
      action:
        `Resolve the divergence of r${blocker.record.seq} first (${blocker.record.action}): ` +
        `expected ${v.expected}; found ${v.found}.`,
      record: `r${blocker.record.seq}`,
      reason: stuck === undefined
        ? "nothing is left unfinished, but the live state differs from what the session did"
        : `r${stuck.record.seq} is unfinished but depends on what diverged`,
    };
  }
  return {
    action: lastAsk === undefined
      ? "Nothing is left unfinished: all recorded work is complete and verified."
      : `All recorded work is complete; carry on from the last request: "${oneLine(lastAsk, 200)}"`,
    record: null,
    reason: "no in-progress or blocked record",
  };
}

/** The divergence that stands in the way of `tagged`, if any. */
function blockerOf(tagged: TaggedRecord, diverged: TaggedRecord[]): TaggedRecord | undefined {
  const paths = new Set(tagged.record.paths);
  return diverged.find((d) =>
    d.record.paths.some((p) => paths.has(p)) ||
    (GIT_KINDS.has(tagged.record.kind) && GIT_KINDS.has(d.record.kind))
  );
}

function rank(t: TaggedRecord): number {
  const { outcome } = t.record;
  if (t.cutOff) return 0;
  if (t.status === "blocked") return 1;
  if (outcome === "error" || outcome === "no-result" || outcome === "interrupted") return 2;
  if (outcome === "todo-in-progress") return 3;
  return 4;
}

/** Latest first for tool records (what happened last matters most); list order for todos. */
function order(a: TaggedRecord, b: TaggedRecord): number {
  return a.record.kind === "todo" ? a.record.seq - b.record.seq : b.record.seq - a.record.seq;
}

function moveFor(t: TaggedRecord): NextMove {
  const r = t.record;
  const id = `r${r.seq}`;
  const what = r.tool === "Bash" ? `\`${commandOf(r.action)}\`` : r.action;
  const where = r.tool === "Bash" && r.cwd ? ` in ${r.cwd}` : "";
  const error = r.result ? ` (last error: ${oneLine(r.result, 160)})` : "";
  switch (rank(t)) {
    case 0:
      return {
        action: r.outcome === "success"
          ? `Run ${what}${where} again: the session broke off (a half-written last line) right after it.`
          : r.kind === "write" || r.kind === "edit"
          ? `Redo ${r.action}: it stopped before its result and the change is not on disk.`
          : `Run ${what}${where} again: it stopped before its result.`,
        record: id,
        reason: t.reason,
      };
    case 1:
      return {
        action: `Find out why ${what} keeps failing${error}, fix that, then run it again${where}.`,
        record: id,
        reason: t.reason,
      };
    case 2:
      return {
        action: `Retry ${what}${where}${r.outcome === "error" ? error : ""}.`,
        record: id,
        reason: t.reason,
      };
    case 3:
      return {
        action: `Carry on with the todo in progress: ${r.action.replace(/^todo: /, "")}`,
        record: id,
        reason: t.reason,
      };
    default:
      return {
        action: `Start the next pending todo: ${r.action.replace(/^todo: /, "")}`,
        record: id,
        reason: t.reason,
      };
  }
}

/** The command of a Bash record's action (`test: npm test` → `npm test`). */
function commandOf(action: string): string {
  return action.replace(/^[a-z+]+: /, "");
}
