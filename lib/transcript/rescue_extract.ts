/**
 * One streaming pass over a dead session's transcript that keeps what a
 * recovery thread needs (recover-session.md step 3): where and when the
 * session ran, the first real ask, the files it edited and wrote, its git
 * commit and push commands, its last assistant summaries and how many times
 * it hit the limit. Everything kept is capped while reading and the result is
 * fitted to {@linkcode EXTRACT_BUDGET} bytes of JSON, so memory and output
 * stay small whatever the file's size; tool results are never parsed.
 *
 * @module
 */

import { deathSignalOf } from "./death.ts";
import { readEntries, skippedLinesNote } from "./entries.ts";
import type { RawLine } from "./lines.ts";
import type { AssistantEntry, Entry } from "./model.ts";
import { assistantText, realAsk } from "./noise.ts";
import { peekString, peekToolResultIds, peekTrue } from "./scan.ts";
import { oneLine, touchedFile } from "./tools.ts";

/** What a rescue keeps of a session. */
export interface RescueExtract {
  sessionId: string | null;
  slug: string | null;
  cwd: string | null;
  gitBranch: string | null;
  /** Timestamp of the first conversation line. */
  startedAt: string | null;
  /** The first real ask; a slash command reads `/name args`. */
  firstUserMessage: string | null;
  /** Most recently touched last. */
  filesEdited: string[];
  filesWritten: string[];
  /** Distinct files touched in all, including any left out of the lists to fit the budget. */
  filesTouchedCount: number;
  /** `git commit`/`git push` commands, the last 10. */
  gitCommands: string[];
  /** The last assistant texts longer than 30 characters, oldest first. */
  lastSummaries: string[];
  /** How many overflow errors the session met. */
  deathCount: number;
  totalLines: number;
  /** Corrupt, half-written or oversized lines met (skipped). */
  notes: string[];
}

/** Most bytes of JSON an extract may take (recover-session.md: under 5 KB per session). */
export const EXTRACT_BUDGET = 5 * 1024;

const FIRST_MESSAGE_CHARS = 500;
const SUMMARY_CHARS = 300;
const SUMMARIES = 5;
const GIT_CHARS = 150;
const GIT_COMMANDS = 10;
const SUMMARY_MIN_CHARS = 30;
/** Distinct paths remembered per list while reading (the most recent win). */
const FILES_KEPT = 200;
/** Distinct paths counted; past this the count is a lower bound. */
const FILES_COUNTED = 10_000;
const WANTED = new Set(["user", "assistant", "system"]);
const GIT_WRITE = /\bgit\b[^\n|;&]*?\s(commit|push)\b/;

/** Stream the transcript at `path` once and keep what a recovery thread needs. */
export function extractRescue(path: string): RescueExtract {
  const state = new ExtractState();
  const report = readEntries(path, (entry) => state.take(entry), {
    types: WANTED,
    preview: (type, line) => state.preview(type, line),
  });
  const notes: string[] = [];
  const skipped = skippedLinesNote(report);
  if (skipped !== null) notes.push(skipped);
  if (report.truncated) notes.push("last line half-written");
  return fitToBudget({ ...state.result(), totalLines: report.lines, notes });
}

class ExtractState {
  sessionId: string | null = null;
  slug: string | null = null;
  cwd: string | null = null;
  gitBranch: string | null = null;
  startedAt: string | null = null;
  firstUserMessage: string | null = null;
  edited = new Map<string, true>();
  written = new Map<string, true>();
  counted = new Set<string>();
  git: string[] = [];
  summaries: string[] = [];
  deaths = 0;

  /** Subagent lines and tool results are dealt with unparsed. */
  preview(type: string, line: RawLine): boolean {
    if (this.slug === null) this.slug = peekString(line, "slug") ?? null;
    if (type !== "user" && type !== "assistant") return false;
    if (peekTrue(line, "isSidechain")) return true;
    return type === "user" && peekToolResultIds(line) !== undefined;
  }

  take(entry: Entry): void {
    if (entry.type !== "user" && entry.type !== "assistant" && entry.type !== "system") return;
    if (entry.isSidechain) return;
    this.sessionId ??= entry.sessionId ?? null;
    this.cwd ??= entry.cwd ?? null;
    this.gitBranch ??= entry.gitBranch ?? null;
    this.startedAt ??= entry.timestamp ?? null;
    if (deathSignalOf(entry) !== undefined) {
      this.deaths++;
      return;
    }
    if (entry.type === "user" && this.firstUserMessage === null) {
      const ask = realAsk(entry);
      if (ask !== undefined) this.firstUserMessage = cut(ask, FIRST_MESSAGE_CHARS);
    }
    if (entry.type === "assistant") this.takeAssistant(entry);
  }

  takeAssistant(entry: AssistantEntry): void {
    for (const block of entry.content) {
      if (block.type !== "tool_use") continue;
      const file = touchedFile(block);
      const command = block.input.command;
      if (file !== undefined) {
        this.touch(block.name === "Write" ? this.written : this.edited, file);
      } else if (block.name === "Bash" && typeof command === "string" && GIT_WRITE.test(command)) {
        this.git.push(oneLine(command, GIT_CHARS));
        if (this.git.length > GIT_COMMANDS) this.git.shift();
      }
    }
    const text = assistantText(entry);
    if (text !== undefined && text.length > SUMMARY_MIN_CHARS) {
      this.summaries.push(oneLine(text, SUMMARY_CHARS));
      if (this.summaries.length > SUMMARIES) this.summaries.shift();
    }
  }

  touch(list: Map<string, true>, file: string): void {
    list.delete(file);
    list.set(file, true);
    if (list.size > FILES_KEPT) list.delete(list.keys().next().value!);
    if (this.counted.size < FILES_COUNTED) this.counted.add(file);
  }

  result(): Omit<RescueExtract, "totalLines" | "notes"> {
    return {
      sessionId: this.sessionId,
      slug: this.slug,
      cwd: this.cwd,
      gitBranch: this.gitBranch,
      startedAt: this.startedAt,
      firstUserMessage: this.firstUserMessage,
      filesEdited: [...this.edited.keys()],
      filesWritten: [...this.written.keys()],
      filesTouchedCount: this.counted.size,
      gitCommands: this.git,
      lastSummaries: this.summaries,
      deathCount: this.deaths,
    };
  }
}

/**
 * Drop the oldest file paths, then the oldest summaries and git commands,
 * until the extract's JSON fits the budget. The counts keep the totals.
 */
export function fitToBudget(extract: RescueExtract, budget = EXTRACT_BUDGET): RescueExtract {
  const fitted = {
    ...extract,
    filesEdited: [...extract.filesEdited],
    filesWritten: [...extract.filesWritten],
    gitCommands: [...extract.gitCommands],
    lastSummaries: [...extract.lastSummaries],
  };
  const size = () => new TextEncoder().encode(JSON.stringify(fitted)).length;
  while (fitted.filesEdited.length + fitted.filesWritten.length > 0 && size() > budget) {
    const longer = fitted.filesEdited.length >= fitted.filesWritten.length
      ? fitted.filesEdited
      : fitted.filesWritten;
    longer.shift();
  }
  for (const list of [fitted.gitCommands, fitted.lastSummaries]) {
    while (list.length > 0 && size() > budget) list.shift();
  }
  if (size() > budget && fitted.firstUserMessage !== null) {
    fitted.firstUserMessage = cut(fitted.firstUserMessage, 200);
  }
  return fitted;
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
