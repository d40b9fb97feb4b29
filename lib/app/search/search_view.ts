/**
 * What search mode prints (spec 11.1.1): the usage, the matches by their
 * list numbers, and what is said of a number that was not shown.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { Session } from "../../core/registry.ts";
import { showList } from "../session/show_list.ts";

/** `search` without a term, for a person. */
export function printUsage(ctx: AppContext): void {
  ctx.err.line("  Usage: claudecm search TERM   (old form: claudecm -s TERM)");
  ctx.err.line("  Lists the sessions whose name contains TERM, ignoring case.");
}

/** The matches, each by its number in the list, and how many of the list's they are. */
export function showMatches(
  ctx: AppContext,
  { term, sessions, numbers, total }: {
    term: string;
    sessions: Session[];
    numbers: number[];
    total: number;
  },
): void {
  showList(ctx, sessions, { title: `Sessions matching '${term}'`, numbers });
  ctx.out.line();
  ctx.out.line(`  ${sessions.length} of ${total} sessions matching '${term}'`);
}

/** A typed answer that is not one of the numbers shown (`number` null: not a number). */
export function sayNotShown(
  ctx: AppContext,
  { number, numbers }: { number: number | null; numbers: number[] },
): void {
  ctx.out.line(
    number === null
      ? `  Type one of the numbers shown (${shownNumbers(numbers)}), or Enter to quit.`
      : `  #${number} is not among the matches: type one of the numbers shown ` +
        `(${shownNumbers(numbers)}), or Enter to quit.`,
    "yellow",
  );
}

/** `1, 3, 7`; a long run of matches as its first three and its last (`1, 3, 7, ... 40`). */
function shownNumbers(numbers: number[]): string {
  if (numbers.length <= 8) return numbers.join(", ");
  return `${numbers.slice(0, 3).join(", ")}, ... ${numbers[numbers.length - 1]}`;
}
