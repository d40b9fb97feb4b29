/**
 * How `rescue` talks to a person: the table of dead sessions, the question
 * of which to recover, and the report block (recover-session.md steps 2, 7).
 *
 * @module
 */

import { formatSize } from "../../core/format.ts";
import type { DeadSession } from "../../transcript/dead_scan.ts";
import { oneLine } from "../../transcript/tools.ts";
import type { AppContext } from "../context.ts";
import { listPlace } from "../session/list_numbers.ts";
import type { Thread } from "./thread.ts";
import { THREADS_SUBDIR } from "./workspace.ts";

/** A dead session as the table shows it. */
export interface DeadRow {
  session: DeadSession;
  slug: string;
  project: string;
}

/** One recovered (or, under --dry-run, planned) thread. */
export interface RecoveredThread {
  thread: Thread;
  session: DeadSession;
  summarySource: "claude" | "mechanical";
  /** Why claude's summary was not used, when it was asked for. */
  summaryNote?: string;
  /** Oddities met while reading the transcript. */
  notes: string[];
  gitCommands: number;
  filesTouched: number;
}

/**
 * The numbered table of dead sessions, each with its number in the list
 * (`listNumbers`), which the row's own number (what to recover) is not.
 */
export function deadTable(
  rows: DeadRow[],
  { heading, listNumbers }: { heading: string; listNumbers: Map<string, number> },
): string[] {
  const cells = rows.map((row, i) => [
    String(i + 1),
    row.session.diedAt.slice(0, 10),
    row.slug,
    row.project,
    formatSize(row.session.size),
    listPlace(listNumbers, row.session.id),
  ]);
  const header = ["#", "Died", "Slug", "Project", "Size", "List"];
  const widths = header.map((title, col) =>
    Math.max(title.length, ...cells.map((cell) => cell[col].length))
  );
  const line = (cell: string[]) =>
    `  ${
      cell.map((text, col) => col === 0 ? text.padStart(widths[0]) : text.padEnd(widths[col]))
        .join(" | ").trimEnd()
    }`;
  return [heading, "", line(header), ...cells.map(line)];
}

/**
 * The chosen rows' indexes from an answer: `all`, or numbers and ranges
 * (`1,3`, `2-4`, `1 3`); an empty set for an empty answer or `n`;
 * undefined when the answer does not parse or names a row that is not there.
 */
function parseSelection(answer: string, count: number): number[] | undefined {
  const text = answer.trim().toLowerCase();
  if (text === "" || text === "n" || text === "no" || text === "none") return [];
  if (text === "all" || text === "a") return Array.from({ length: count }, (_, i) => i);
  const picked = new Set<number>();
  for (const part of text.split(/[\s,]+/).filter((p) => p !== "")) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) return undefined;
    const from = Number(range[1]);
    const to = Number(range[2] ?? range[1]);
    if (from < 1 || to > count || from > to) return undefined;
    for (let n = from; n <= to; n++) picked.add(n - 1);
  }
  return [...picked].sort((a, b) => a - b);
}

/** Ask which rows to recover until the answer parses; end of input picks none. */
export function chooseRows(ctx: AppContext, count: number): number[] {
  while (true) {
    const answer = ctx.prompter.ask(
      `Recover which? (1-${count}, e.g. 1,3 or 2-4; all; Enter for none): `,
    );
    if (answer === null) return [];
    const picked = parseSelection(answer, count);
    if (picked !== undefined) return picked;
    ctx.out.line(`Answer numbers between 1 and ${count}, ranges like 1-2, or all.`, "yellow");
  }
}

/** The report block: a table when several were recovered, then each thread's details. */
export function reportLines(items: RecoveredThread[], dryRun: boolean): string[] {
  const title = dryRun
    ? "Session Recovery (dry run: nothing written)"
    : "Session Recovery Complete";
  const lines = [title, "═".repeat(title.length), ""];
  if (items.length > 1) {
    for (const item of items) {
      lines.push(
        `  ${item.thread.id}  ${item.thread.company}  ${oneLine(item.thread.summary, 60)}`,
      );
    }
    lines.push("");
  }
  for (const item of items) {
    const { thread } = item;
    const path = `${THREADS_SUBDIR}/${thread.id}.json`;
    lines.push(
      `Thread:   ${thread.id}`,
      `Died:     ${thread.recovery.death_timestamp}`,
      `Session:  ${thread.recovery.original_slug} (${thread.recovery.original_session_id})`,
      `Company:  ${thread.company}`,
      `Summary:  ${thread.summary}${item.summarySource === "claude" ? " (by claude)" : ""}`,
      `Files:    ${item.filesTouched} files touched`,
      `Commits:  ${item.gitCommands} git commands found in session`,
    );
    if (item.summaryNote) lines.push(`Note:     claude summary not used: ${item.summaryNote}`);
    for (const note of item.notes) lines.push(`Note:     ${note}`);
    lines.push("", dryRun ? `Thread would be saved: ${path}` : `Thread saved: ${path}`, "");
  }
  if (!dryRun && items.length > 0) {
    const first = `${THREADS_SUBDIR}/${items[0].thread.id}.json`;
    lines.push(
      "Next:",
      `  - Review: read ${first}`,
      "  - Continue: start a fresh session from the thread (the dead session needs /compact",
      "    before it can resume)",
      "  - Nothing was committed: check each repo's working tree yourself",
    );
  }
  return lines;
}
