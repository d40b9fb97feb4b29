/**
 * The work a session did, mined from its transcript for `recall`: every tool
 * call paired with its result, classified (files written, edited, removed;
 * commands, tests, commits, pushes; reads, searches, folder changes; the
 * todo list), each with what it expects of the live repository now. Reading
 * is strict: a corrupt line fails the whole read (no partial capsule), but a
 * half-written final line is a crash, not corruption, and is reported as
 * `truncated`. Nothing here looks at the live files; lib/app/recall does.
 *
 * @module
 */

import { readEntries } from "./entries.ts";
import type { ScanLinesOptions } from "./lines.ts";
import type {
  AssistantEntry,
  ConversationFields,
  ToolResultBlock,
  ToolUseBlock,
  UserEntry,
} from "./model.ts";
import { realAsk } from "./noise.ts";
import { committedShas, pushedRefs } from "./shell_command.ts";
import { oneLine, TaskList, type Todo, todoWriteList, userRefusal } from "./tools.ts";
import { classifyCall, type Expectation, type Outcome, type WorkKind } from "./work_classify.ts";

export type { Expectation, Outcome, SessionCommit, WorkKind } from "./work_classify.ts";

/** One unit of work a session did, with its outcome. */
export interface WorkRecord {
  /** 1-based, in transcript order. */
  seq: number;
  kind: WorkKind;
  /** The tool that did it; undefined for folder changes. */
  tool?: string;
  /** One line: what was done. */
  action: string;
  outcome: Outcome;
  /** One line of the result: the error text, or the start of the output. */
  result?: string;
  /** Absolute paths of the files the record is about. */
  paths: string[];
  /** Records with the same step are attempts at the same thing (for retries). */
  step: string;
  expects: Expectation[];
  /** Transcript line of the call. */
  line: number;
  timestamp?: string;
  cwd?: string;
  /** The `tool_use` id, for tool calls. */
  toolUseId?: string;
}

/** A session's work, as its transcript records it. */
export interface MinedSession {
  sessionId?: string;
  /** The user's title, else Claude's, else the first request. */
  title?: string;
  /** The user's last real request. */
  lastAsk?: string;
  /** The git branch the last line records. */
  branch?: string;
  /** The cwd the last line records. */
  cwd?: string;
  lastActivity?: string;
  records: WorkRecord[];
  /** The final line is half-written (claude stopped mid-write). */
  truncated: boolean;
  lines: number;
}

const RESULT_LIMIT = 300;
const WANTED = new Set(["user", "assistant", "system", "ai-title", "custom-title", "last-prompt"]);
const TASK_TOOLS = new Set(["TaskCreate", "TaskUpdate", "TaskList", "TaskGet"]);

/** Options for {@linkcode mineWork}. */
export interface MineOptions {
  /** Line-size limits (tests use small ones). */
  scan?: ScanLinesOptions;
}

/** Mine the transcript at `path`; throws TranscriptError on a corrupt line. */
export function mineWork(path: string, options: MineOptions = {}): MinedSession {
  const miner = new Miner();
  const report = readEntries(path, (entry, line) => {
    switch (entry.type) {
      case "assistant":
        return miner.assistant(entry, line.number);
      case "user":
        return miner.user(entry, line.number);
      case "system":
        if (!entry.isSidechain) miner.where(entry, line.number);
        return;
      case "custom-title":
        miner.customTitle = entry.customTitle;
        return;
      case "ai-title":
        miner.aiTitle = entry.aiTitle;
        return;
    }
  }, { mode: "strict", allowHalfWrittenEnd: true, types: WANTED, scan: options.scan });
  return miner.finish(report.truncated, report.lines);
}

class Miner {
  records: WorkRecord[] = [];
  pending = new Map<string, WorkRecord>();
  customTitle?: string;
  aiTitle?: string;
  lastAsk?: string;
  firstAsk?: string;
  sessionId?: string;
  branch?: string;
  cwd?: string;
  lastActivity?: string;
  todos?: { list: Todo[]; line: number; timestamp?: string };
  tasks = new TaskList();
  taskLine?: { line: number; timestamp?: string };

  assistant(entry: AssistantEntry, line: number): void {
    if (entry.isSidechain) return;
    this.where(entry, line);
    for (const block of entry.content) {
      if (block.type === "tool_use") this.call(block, entry, line);
    }
  }

  user(entry: UserEntry, line: number): void {
    if (entry.isSidechain) return;
    this.where(entry, line);
    if (typeof entry.content !== "string") {
      for (const block of entry.content) {
        if (block.type === "tool_result") this.result(block);
      }
    }
    const ask = realAsk(entry);
    if (ask === undefined) return;
    this.lastAsk = oneLine(ask.slice(0, 8_000), 2_000);
    this.firstAsk ??= oneLine(ask.slice(0, 400), 100);
  }

  /** Follow the session's place: id, branch, time, and cwd changes as navigation records. */
  where(entry: ConversationFields, line: number): void {
    this.sessionId ??= entry.sessionId;
    if (entry.gitBranch) this.branch = entry.gitBranch;
    if (entry.timestamp) this.lastActivity = entry.timestamp;
    if (entry.cwd === undefined || entry.cwd === this.cwd) return;
    if (this.cwd !== undefined) {
      this.add({
        kind: "cd",
        action: `cwd changed to ${entry.cwd}`,
        outcome: "success",
        paths: [entry.cwd],
        step: `cd:${entry.cwd}`,
        expects: [{ kind: "directory", path: entry.cwd }],
        line,
        timestamp: entry.timestamp,
        cwd: entry.cwd,
      });
    }
    this.cwd = entry.cwd;
  }

  call(tool: ToolUseBlock, entry: AssistantEntry, line: number): void {
    const at = { line, timestamp: entry.timestamp };
    const todos = todoWriteList(tool);
    if (todos !== undefined) {
      this.todos = { list: todos, ...at };
      return;
    }
    if (TASK_TOOLS.has(tool.name)) {
      if (this.tasks.apply(tool)) this.taskLine = at;
      return;
    }
    const record = this.add({
      ...classifyCall(tool, entry.cwd ?? this.cwd),
      tool: tool.name,
      outcome: "no-result",
      ...at,
      cwd: entry.cwd ?? this.cwd,
      toolUseId: tool.id,
    });
    if (tool.id !== "") this.pending.set(tool.id, record);
  }

  result(block: ToolResultBlock): void {
    const record = this.pending.get(block.tool_use_id);
    if (record === undefined) return;
    this.pending.delete(block.tool_use_id);
    const text = block.text ?? "";
    const refusal = block.is_error ? userRefusal(text) : undefined;
    record.outcome = refusal ?? (block.is_error ? "error" : "success");
    // Cut before flattening: a result can be megabytes.
    if (text !== "") record.result = oneLine(text.slice(0, RESULT_LIMIT * 4), RESULT_LIMIT);
    if (record.outcome !== "success") return;
    if (record.kind === "commit") {
      for (const commit of committedShas(text)) record.expects.push({ kind: "commit", commit });
    }
    if (record.kind === "commit" || record.kind === "push") {
      for (const pushed of pushedRefs(text)) record.expects.push({ kind: "pushed", ...pushed });
    }
  }

  add(fields: Omit<WorkRecord, "seq">): WorkRecord {
    const record = { seq: this.records.length + 1, ...fields };
    this.records.push(record);
    return record;
  }

  finish(truncated: boolean, lines: number): MinedSession {
    const todos = [
      ...(this.todos
        ? this.todos.list.map((todo) => ({ todo, ...this.todos!, tool: "TodoWrite" }))
        : []),
      ...(this.taskLine
        ? this.tasks.list().map((todo) => ({ todo, ...this.taskLine!, tool: "TaskUpdate" }))
        : []),
    ];
    for (const { todo, line, timestamp, tool } of todos) {
      this.add({
        kind: "todo",
        tool,
        action: `todo: ${oneLine(todo.content, 200)}`,
        outcome: todo.status === "completed"
          ? "todo-completed"
          : todo.status === "in_progress"
          ? "todo-in-progress"
          : "todo-pending",
        paths: [],
        step: `todo:${todo.content}`,
        expects: [],
        line,
        timestamp,
      });
    }
    return {
      sessionId: this.sessionId,
      title: this.customTitle ?? this.aiTitle ?? this.firstAsk,
      lastAsk: this.lastAsk,
      branch: this.branch,
      cwd: this.cwd,
      lastActivity: this.lastActivity,
      records: this.records,
      truncated,
      lines,
    };
  }
}
