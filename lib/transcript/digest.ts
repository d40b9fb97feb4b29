/**
 * One streaming pass over a transcript that keeps what a recovering session
 * needs (digest priority list in recover-design.md): titles, the last
 * instruction, recent real asks, the last assistant text, the todo list,
 * recent tool actions, files touched, branch and modes, and whether the last
 * turn was cut off. Everything kept is bounded, so memory does not grow with
 * the file; tool results are matched to their calls from the raw bytes,
 * without parsing the (often huge) result lines, and assistant lines are
 * read from their bytes too, decoding only the tool inputs the digest shows
 * (not a Write's whole file).
 *
 * @module
 */

import { readEntries, type ReadMode, type ReadReport } from "./entries.ts";
import type { RawLine } from "./lines.ts";
import type { AssistantEntry, Entry, ToolUseBlock, UserEntry } from "./model.ts";
import { assistantText, cleanPrompt, isSidechain, realAsk } from "./noise.ts";
import { peekToolResultIds, peekTrue } from "./scan.ts";
import { peekAssistant, type PeekAssistantOptions } from "./scan_assistant.ts";
import { readTail } from "./tail.ts";
import {
  keyedDetail,
  oneLine,
  relativeToCwd,
  TaskList,
  type Todo,
  todoWriteList,
  TOOL_INPUT_KEYS,
  toolDetail,
  touchedFile,
} from "./tools.ts";

/** A tool call, summarised. */
export interface ToolAction {
  name: string;
  detail: string;
}

/** What the digest pass found. */
export interface DigestData {
  sessionId: string;
  customTitle?: string;
  aiTitle?: string;
  /** The `summary` line older versions wrote as a conversation's title. */
  summary?: string;
  /**
   * The last instruction: the `last-prompt` line, or a real ask written after
   * it (a crash comes before Claude re-appends the metadata).
   */
  lastPrompt?: string;
  /** The last real asks, oldest first. */
  asks: string[];
  lastAssistantText?: string;
  /** The latest todo list, if the session kept one. */
  todos?: Todo[];
  /** The last tool calls, oldest first. */
  toolActions: ToolAction[];
  /** Files changed, most recent first. */
  filesTouched: string[];
  branch?: string;
  mode?: string;
  permissionMode?: string;
  cwd?: string;
  /** Timestamp of the last line that has one. */
  lastActivity?: string;
  /** Why the last turn may be unfinished; empty when it looks complete. */
  incomplete: string[];
  compactions: number;
  report: ReadReport;
}

/** Options for {@linkcode collectDigest}. */
export interface CollectOptions {
  mode?: ReadMode;
}

const MAX_ASKS = 5;
const MAX_ACTIONS = 10;
const MAX_FILES = 30;
/** Distinct paths remembered from file-history snapshots. */
const MAX_SNAPSHOT_FILES = 1_000;
/**
 * Longest ask or assistant text kept, so a pasted megabyte cannot pile up in
 * memory; the renderer cuts far shorter anyway and marks its own cut.
 */
const MAX_TEXT = 20_000;

/** What an assistant line's tool calls are read for: tools.ts names the keys. */
const DIGEST_INPUT: PeekAssistantOptions = {
  inputKeys: TOOL_INPUT_KEYS,
  wholeInput: (_name, input) => keyedDetail(input) === undefined,
};

type LastEvent = "none" | "ask" | "tool_use" | "tool_result" | "reply" | "turn_end" | "api_error";

/** Read the transcript at `path` and keep what the digest shows. */
export function collectDigest(
  path: string,
  sessionId: string,
  options: CollectOptions = {},
): DigestData {
  const state = new DigestState();
  const report = readEntries(path, (entry) => state.take(entry), {
    mode: options.mode,
    preview: (type, line) => state.preview(type, line),
  });
  return { ...state.finish(sessionId, report), lastActivity: readTail(path).lastTimestamp };
}

class DigestState {
  customTitle?: string;
  aiTitle?: string;
  summary?: string;
  lastPrompt?: string;
  mode?: string;
  permissionMode?: string;
  branch?: string;
  cwd?: string;
  asks: string[] = [];
  lastText?: string;
  todos?: Todo[];
  tasks = new TaskList();
  actions: ToolAction[] = [];
  edited = new Map<string, true>();
  snapshotFiles = new Set<string>();
  pending = new Map<string, ToolUseBlock>();
  queued: string[] = [];
  lastEvent: LastEvent = "none";
  apiError?: string;
  compactions = 0;

  /**
   * Sidechain lines, tool-result lines and assistant lines are handled here,
   * unparsed; a line the peeks cannot follow is left to JSON.parse.
   */
  preview(type: string, line: RawLine): boolean {
    if (type !== "user" && type !== "assistant") return false;
    if (peekTrue(line, "isSidechain")) return true;
    if (type === "assistant") {
      const entry = peekAssistant(line, DIGEST_INPUT);
      if (entry !== undefined) this.#assistant(entry);
      return entry !== undefined;
    }
    const ids = peekToolResultIds(line);
    if (ids === undefined) return false;
    this.#results(ids);
    return true;
  }

  take(entry: Entry): void {
    switch (entry.type) {
      case "user":
        return this.#user(entry);
      case "assistant":
        return this.#assistant(entry);
      case "system":
        if (isSidechain(entry)) return;
        this.#where(entry);
        if (entry.subtype === "compact_boundary") this.compactions++;
        if (entry.subtype === "turn_duration") this.#turnEnd();
        return;
      case "custom-title":
        this.customTitle = entry.customTitle;
        return;
      case "ai-title":
        this.aiTitle = entry.aiTitle;
        return;
      case "last-prompt":
        this.lastPrompt = keep(entry.lastPrompt);
        return;
      case "mode":
        this.mode = entry.mode;
        return;
      case "permission-mode":
        this.permissionMode = entry.permissionMode;
        return;
      case "file-history-snapshot":
        for (const file of entry.files) {
          if (this.snapshotFiles.size < MAX_SNAPSHOT_FILES) this.snapshotFiles.add(file);
        }
        return;
      case "summary":
        this.summary = entry.summary;
        return;
      case "queue-operation":
        if (entry.operation === "enqueue" && entry.content !== undefined) {
          this.queued.push(entry.content);
        } else if (entry.operation === "dequeue" || entry.operation === "remove") {
          this.queued.shift();
        } else if (entry.operation === "popAll") this.queued = [];
        return;
    }
  }

  finish(sessionId: string, report: ReadReport): DigestData {
    return {
      sessionId,
      customTitle: this.customTitle,
      aiTitle: this.aiTitle,
      summary: this.summary,
      lastPrompt: this.lastPrompt,
      asks: this.asks,
      lastAssistantText: this.lastText,
      todos: this.todos,
      toolActions: this.actions,
      filesTouched: this.#files(),
      branch: this.branch,
      mode: this.mode,
      permissionMode: this.permissionMode,
      cwd: this.cwd,
      incomplete: this.#incomplete(report),
      compactions: this.compactions,
      report,
    };
  }

  #user(entry: UserEntry): void {
    if (isSidechain(entry)) return;
    this.#where(entry);
    if (typeof entry.content !== "string") {
      const ids = entry.content.flatMap((b) => b.type === "tool_result" ? [b.tool_use_id] : []);
      if (ids.length > 0) this.#results(ids);
    }
    const ask = realAsk(entry);
    if (ask === undefined) return;
    this.asks.push(keep(ask));
    if (this.asks.length > MAX_ASKS) this.asks.shift();
    this.lastPrompt = keep(ask);
    this.pending.clear();
    this.apiError = undefined;
    this.lastEvent = "ask";
  }

  #assistant(entry: AssistantEntry): void {
    this.#where(entry);
    if (entry.isApiErrorMessage) {
      const text = entry.content.map((b) => b.type === "text" ? b.text : "").join(" ").trim();
      this.apiError = oneLine(text || "unknown error", 200);
      this.lastEvent = "api_error";
      return;
    }
    const text = assistantText(entry);
    if (text !== undefined) {
      this.lastText = keep(text);
      this.lastEvent = "reply";
    }
    for (const block of entry.content) {
      if (block.type !== "tool_use") continue;
      this.pending.set(block.id, block);
      this.lastEvent = "tool_use";
      this.actions.push({ name: block.name, detail: toolDetail(block) });
      if (this.actions.length > MAX_ACTIONS) this.actions.shift();
      const file = touchedFile(block);
      if (file !== undefined) {
        this.edited.delete(file);
        this.edited.set(file, true);
        if (this.edited.size > MAX_FILES) this.edited.delete(this.edited.keys().next().value!);
      }
      const todos = todoWriteList(block);
      if (todos !== undefined) this.todos = todos;
      else if (this.tasks.apply(block)) this.todos = this.tasks.list();
    }
  }

  #results(ids: string[]): void {
    for (const id of ids) this.pending.delete(id);
    this.lastEvent = "tool_result";
  }

  #turnEnd(): void {
    this.pending.clear();
    this.lastEvent = "turn_end";
  }

  #where(entry: { gitBranch?: string; cwd?: string }): void {
    if (entry.gitBranch) this.branch = entry.gitBranch;
    if (entry.cwd) this.cwd = entry.cwd;
  }

  /** Edited files, most recent first, then files only the snapshots name. */
  #files(): string[] {
    const relative = (file: string) => relativeToCwd(this.cwd, file);
    const files = [...this.edited.keys()].reverse().map(relative);
    const seen = new Set(files);
    for (const file of this.snapshotFiles) {
      if (files.length >= MAX_FILES) break;
      if (!seen.has(relative(file))) files.push(relative(file));
    }
    return files;
  }

  #incomplete(report: ReadReport): string[] {
    const reasons: string[] = [];
    if (report.truncated) {
      reasons.push("the transcript's last line is half-written (claude stopped mid-write)");
    }
    for (const tool of this.pending.values()) {
      reasons.push(
        `work was in progress on ${tool.name}: ${toolDetail(tool)} (no result recorded)`,
      );
    }
    if (this.lastEvent === "ask") reasons.push("the last ask got no reply");
    if (this.lastEvent === "tool_result") {
      reasons.push("tool results came back but claude had not answered them");
    }
    if (this.lastEvent === "api_error") {
      reasons.push(`the last reply was an API error: ${this.apiError}`);
    }
    for (const prompt of this.queued) {
      const text = cleanPrompt(prompt);
      if (text !== undefined) {
        reasons.push(`a queued prompt was never processed: ${oneLine(text, 200)}`);
      }
    }
    return reasons;
  }
}

/** `text`, or its first MAX_TEXT characters marked with how much was dropped. */
function keep(text: string): string {
  return text.length <= MAX_TEXT
    ? text
    : `${text.slice(0, MAX_TEXT)}…[+${text.length - MAX_TEXT} chars]`;
}
