/**
 * How `recover` shows candidates to a person: a table, and in a terminal the
 * auto-pick with its alternates and a confirmation.
 *
 * @module
 */

import { formatSize } from "../../core/format.ts";
import { parseWholeNumber } from "../../core/numbers.ts";
import type { Candidate } from "../../transcript/candidates.ts";
import { oneLine } from "../../transcript/tools.ts";
import type { AppContext } from "../context.ts";
import { listPlace } from "../session/list_numbers.ts";
import type { CandidateList } from "./recover.ts";

/**
 * The candidates as numbered lines, the auto-pick first, each with its number
 * in the list (`listNumbers`), which the pick number is not.
 */
export function candidateTable(
  list: CandidateList,
  { now, listNumbers }: { now: Date; listNumbers: Map<string, number> },
): string[] {
  const lines = [`Sessions for ${list.cwd} (most recent first):`];
  list.candidates.forEach((candidate, i) =>
    lines.push(...describe(candidate, i + 1, { now, listNumbers }))
  );
  lines.push("", "Digest one with: claudecm recover --session ID --digest");
  return lines;
}

/**
 * Show the auto-pick and the alternates, then ask which to recover. Enter or
 * `y` takes the auto-pick, a number an alternate, `n` (or end of input) none.
 */
export function choosePick(
  ctx: AppContext,
  list: CandidateList,
  listNumbers: Map<string, number>,
): Candidate | undefined {
  const shown = { now: ctx.now(), listNumbers };
  const [pick, ...alternates] = list.candidates;
  ctx.out.line("Most recent session in this folder:", "cyan");
  for (const line of describe(pick, 1, shown)) ctx.out.line(line);
  if (alternates.length > 0) {
    ctx.out.line("Alternates:");
    alternates.forEach((candidate, i) =>
      describe(candidate, i + 2, shown).forEach((l) => ctx.out.line(l))
    );
  }
  const range = alternates.length > 0 ? ` or 1-${list.candidates.length}` : "";
  while (true) {
    const answer = ctx.prompter.ask(`Recover session 1? [Y/n${range}]: `);
    if (answer === null) return undefined;
    const text = answer.trim().toLowerCase();
    if (text === "" || text === "y" || text === "yes") return pick;
    if (text === "n" || text === "no") return undefined;
    const number = parseWholeNumber(text);
    if (number !== null && number >= 1 && number <= list.candidates.length) {
      return list.candidates[number - 1];
    }
    ctx.out.line(`Answer y, n${range}.`, "yellow");
  }
}

function describe(
  candidate: Candidate,
  number: number,
  { now, listNumbers }: { now: Date; listNumbers: Map<string, number> },
): string[] {
  const facts = [
    when(candidate.lastActivity, now),
    candidate.branch && `branch ${candidate.branch}`,
    formatSize(candidate.size),
    candidate.truncated && "last line half-written",
  ].filter(Boolean).join(" · ");
  const title = oneLine(candidate.title ?? "(untitled)", 80);
  const place = listPlace(listNumbers, candidate.id);
  const lines = [`  ${number}) ${title}  [${candidate.id}]  (${place})`];
  lines.push(`     ${facts}`);
  if (candidate.lastPrompt) lines.push(`     last prompt: ${oneLine(candidate.lastPrompt, 100)}`);
  return lines;
}

/** `2026-11-30 11:50 UTC (10 min ago)`. */
function when(iso: string | null, now: Date): string {
  if (iso === null) return "no activity recorded";
  const date = new Date(iso);
  const stamp = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  const minutes = Math.round((now.getTime() - date.getTime()) / 60_000);
  const ago = minutes < 1
    ? "just now"
    : minutes < 60
    ? `${minutes} min ago`
    : minutes < 48 * 60
    ? `${Math.round(minutes / 60)} h ago`
    : `${Math.round(minutes / 1440)} days ago`;
  return `${stamp} (${ago})`;
}
