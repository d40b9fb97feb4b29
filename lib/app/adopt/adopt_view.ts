/**
 * How `adopt` shows its candidates, the question that picks them, and what it did.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { formatDateShort, formatSize } from "../../core/format.ts";
import type { AdoptCandidate, Adopted, AdoptSkip } from "./adopt_model.ts";

/** Print the numbered candidates and any session left out with a reason. */
export function printCandidates(
  ctx: AppContext,
  { candidates, skipped }: { candidates: AdoptCandidate[]; skipped: AdoptSkip[] },
): void {
  for (const skip of skipped) {
    ctx.err.line(`  Skipped ${skip.sessionId} (${skip.dir}): ${skip.reason}.`, "yellow");
  }
  if (candidates.length === 0) {
    ctx.out.line(
      skipped.length === 0
        ? "  No sessions to adopt: the list already has every session on disk."
        : `  No sessions to adopt but the ${skipped.length} skipped above.`,
    );
    return;
  }
  const now = ctx.now();
  const width = String(candidates.length).length;
  ctx.out.line();
  ctx.out.line(`  === Sessions not in the list (${candidates.length}) ===`);
  ctx.out.line();
  candidates.forEach((candidate, i) => {
    const when = candidate.lastActivity
      ? formatDateShort(new Date(candidate.lastActivity), now)
      : "--";
    ctx.out.line(
      `  ${String(i + 1).padStart(width)}. ${candidate.title}  ` +
        `(${when}, ${formatSize(candidate.size)})`,
    );
    ctx.out.line(`  ${" ".repeat(width)}  ${candidate.dir}`, "darkGray");
  });
  ctx.out.line();
}

/** Ask which candidates to add: numbers (`1 3 5`, `2-4`), `all`, or none. */
export function askAdoptPicks(ctx: AppContext, candidates: AdoptCandidate[]): AdoptCandidate[] {
  while (true) {
    const answer = ctx.prompter.ask(
      `  Adopt which? (numbers like 1 3 5-7, 'all', Enter for none): `,
    );
    if (answer === null || answer.trim() === "") return [];
    const picked = parsePicks(answer, candidates.length);
    if (picked !== undefined) return picked.map((n) => candidates[n - 1]);
    ctx.out.line(`  Type numbers from 1 to ${candidates.length}, or 'all'.`, "yellow");
  }
}

/** `1 3 5-7` or `all` as sorted 1-based numbers; undefined when it does not parse. */
export function parsePicks(answer: string, count: number): number[] | undefined {
  const text = answer.trim().toLowerCase();
  if (text === "all" || text === "a") return Array.from({ length: count }, (_, i) => i + 1);
  const picked = new Set<number>();
  for (const part of text.split(/[\s,]+/)) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) return undefined;
    const from = Number(range[1]);
    const to = Number(range[2] ?? range[1]);
    if (from < 1 || to > count || from > to) return undefined;
    for (let n = from; n <= to; n++) picked.add(n);
  }
  return [...picked].sort((a, b) => a - b);
}

/** What the run did with the candidates it showed. */
export function printOutcome(
  ctx: AppContext,
  { dryRun, wrote, chosen, adopted }: {
    dryRun: boolean;
    wrote: boolean;
    chosen: number;
    adopted: Adopted;
  },
): void {
  if (dryRun) {
    ctx.out.line(`  Dry run: would add ${chosen} session(s); nothing was written.`);
  } else if (wrote) {
    reportAdded(ctx, { ...adopted, chosen });
  } else if (!ctx.interactive) {
    ctx.out.line("  Nothing added. Run claudecm adopt --all to add them all.");
  } else {
    ctx.out.line("  Nothing added.");
  }
}

function reportAdded(ctx: AppContext, { added, gone, chosen }: Adopted & { chosen: number }): void {
  const already = chosen - added.length - gone;
  const meanwhile =
    (already === 0
      ? ""
      : ` ${already} ${already === 1 ? "was" : "were"} added meanwhile by another claudecm.`) +
    (gone === 0
      ? ""
      : ` ${gone} ${
        gone === 1 ? "was" : "were"
      } moved away meanwhile (quarantined?) and not added.`);
  if (added.length === 0) {
    ctx.out.line(`  Nothing added:${meanwhile}`, "yellow");
    return;
  }
  ctx.out.line(
    `  Added ${added.length} session(s) to the bottom of the list.${meanwhile}`,
    "green",
  );
}
