/**
 * How `find` shows its results in a terminal, and the question that picks one.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { formatDateShort } from "../../core/format.ts";
import { isFolderGone } from "../../core/fs_checks.ts";
import { parseWholeNumber } from "../../core/numbers.ts";
import type { FindResult } from "./results.ts";
import { snippetSegments } from "./snippet.ts";
import { FOLDER_GONE_MARK } from "../../ui/session_list.ts";
const ROLE_NAMES: Record<string, string> = {
  user: "you",
  assistant: "claude",
  tool: "tool call",
  tool_output: "tool output",
};

/** Print the numbered results, each with its matches. */
export function printResults(ctx: AppContext, results: FindResult[]): void {
  if (results.length === 0) {
    ctx.out.line("  No session mentions that.");
    return;
  }
  const now = ctx.now();
  const width = String(results.length).length;
  ctx.out.line();
  results.forEach((result, i) => {
    const number = String(i + 1).padStart(width);
    const where = result.registered === null ? "not in list" : `#${result.registered}`;
    const when = result.lastActivity ? formatDateShort(new Date(result.lastActivity), now) : "--";
    ctx.out.line(`  ${number}. ${result.title ?? result.sessionId}  (${where}, ${when})`, "cyan");
    // A folder that is gone is marked as the list marks it: a pick of it asks where it went.
    const gone = result.dir !== null && isFolderGone(result.dir) ? ` ${FOLDER_GONE_MARK}` : "";
    ctx.out.line(`  ${" ".repeat(width)}  ${result.dir ?? "(folder unknown)"}${gone}`, "darkGray");
    for (const match of result.matches) {
      const role = (ROLE_NAMES[match.role] ?? match.role).padEnd(11);
      ctx.out.lineOf([`  ${" ".repeat(width)}    ${role} `, ...snippetSegments(match.snippet)]);
    }
  });
  ctx.out.line();
}

/** Ask which result to resume; undefined for none. */
export function askPick(ctx: AppContext, results: FindResult[]): FindResult | undefined {
  while (true) {
    const answer = ctx.prompter.ask(
      `  Resume which? (1-${results.length}, Enter for none): `,
    );
    if (answer === null || answer.trim() === "" || /^q/i.test(answer.trim())) return undefined;
    const number = parseWholeNumber(answer.trim());
    if (number !== null && number >= 1 && number <= results.length) return results[number - 1];
    ctx.out.line(`  Type a number from 1 to ${results.length}.`, "yellow");
  }
}
