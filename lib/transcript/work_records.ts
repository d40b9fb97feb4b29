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

import { createHash } from "node:crypto";
import { isAbsolute, resolve } from "node:path";
import { readEntries } from "./entries.ts";
import type {
  AssistantEntry,
  ConversationFields,
  ToolResultBlock,
  ToolUseBlock,
  UserEntry,
} from "./model.ts";
import { realAsk } from "./noise.ts";
import { committedShas, readCommand } from "./shell_command.ts";
import { oneLine, TaskList, type Todo, todoWriteList, toolDetail, userRefusal } from "./tools.ts";

/** What a record is about. */
export type WorkKind =
  | "write"
  | "edit"
  | "delete"
  | "command"
  | "test"
  | "commit"
  | "push"
  | "read"
  | "search"
  | "cd"
  | "todo"
  | "tool"
  | "branch";

/** How a record ended, as the transcript tells it. */
export type Outcome =
  | "success"
  | "error"
  | "rejected"
  | "interrupted"
  | "no-result"
  | "todo-pending"
  | "todo-in-progress"
  | "todo-completed";

/** A commit a session made, from `git commit`'s output. */
export interface SessionCommit {
  sha: string;
  branch: string;
  subject: string;
}

/** What a record says the live repository should hold now. */
export type Expectation =
  | { kind: "content"; path: string; sha256: string; lfSha256: string; bytes: number }
  | { kind: "contains"; path: string; texts: string[] }
  | { kind: "absent"; path: string }
  | { kind: "exists"; path: string }
  | { kind: "directory"; path: string }
  | { kind: "commit"; commit: SessionCommit };

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
const FILE_WRITE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const READ_TOOLS = new Set(["Read", "NotebookRead", "BashOutput"]);
const SEARCH_TOOLS = new Set(["Glob", "Grep", "LS", "WebFetch", "WebSearch", "ToolSearch"]);
const TASK_TOOLS = new Set(["TaskCreate", "TaskUpdate", "TaskList", "TaskGet"]);

/** Mine the transcript at `path`; throws TranscriptError on a corrupt line. */
export function mineWork(path: string): MinedSession {
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
  }, { mode: "strict", allowHalfWrittenEnd: true, types: WANTED });
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
      ...classify(tool, entry.cwd ?? this.cwd),
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
    if (record.kind === "commit" && record.outcome === "success") {
      for (const commit of committedShas(text)) record.expects.push({ kind: "commit", commit });
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

type Classified = Pick<WorkRecord, "kind" | "action" | "paths" | "step" | "expects">;

/** What a tool call is, and what it leaves behind if it succeeds. */
function classify(tool: ToolUseBlock, cwd: string | undefined): Classified {
  const input = tool.input;
  const filePath = text(input.file_path) ?? text(input.notebook_path) ?? text(input.path);
  const absolute = filePath === undefined ? undefined : absolutePath(filePath, cwd);
  if (FILE_WRITE_TOOLS.has(tool.name) && absolute !== undefined) {
    return fileChange(tool, absolute);
  }
  if (READ_TOOLS.has(tool.name)) {
    return {
      kind: "read",
      action: `${tool.name} ${toolDetail(tool)}`,
      paths: absolute && tool.name !== "BashOutput" ? [absolute] : [],
      step: `read:${absolute ?? toolDetail(tool)}`,
      expects: absolute && tool.name === "Read" ? [{ kind: "exists", path: absolute }] : [],
    };
  }
  if (SEARCH_TOOLS.has(tool.name)) {
    return {
      kind: "search",
      action: `${tool.name} ${toolDetail(tool)}`,
      paths: [],
      step: `search:${tool.name}:${toolDetail(tool)}`,
      expects: [],
    };
  }
  if (tool.name === "Bash" && typeof input.command === "string") return bash(input.command, cwd);
  return {
    kind: "tool",
    action: `${tool.name} ${toolDetail(tool)}`.trim(),
    paths: absolute ? [absolute] : [],
    step: `tool:${tool.name}:${toolDetail(tool)}`,
    expects: [],
  };
}

function fileChange(tool: ToolUseBlock, path: string): Classified {
  const input = tool.input;
  const base = { paths: [path], step: `file:${path}` };
  if (tool.name === "Write" && typeof input.content === "string") {
    const bytes = new TextEncoder().encode(input.content);
    return {
      ...base,
      kind: "write",
      action: `Write ${path} (${bytes.length} bytes)`,
      expects: [{
        kind: "content",
        path,
        sha256: sha256(bytes),
        lfSha256: sha256(new TextEncoder().encode(input.content.replaceAll("\r\n", "\n"))),
        bytes: bytes.length,
      }],
    };
  }
  const edits = tool.name === "MultiEdit" && Array.isArray(input.edits)
    ? input.edits as Record<string, unknown>[]
    : [input];
  const texts = edits.flatMap((edit) => {
    const next = text(edit?.new_string);
    return next !== undefined && next.trim() !== "" ? [next] : [];
  });
  // A notebook stores its source JSON-escaped, and an edit that only removed
  // text leaves nothing to look for: of those, only the file's presence is checked.
  return {
    ...base,
    kind: "edit",
    action: `${tool.name} ${path}${edits.length > 1 ? ` (${edits.length} edits)` : ""}`,
    expects: tool.name === "NotebookEdit" || texts.length === 0
      ? [{ kind: "exists", path }]
      : [{ kind: "contains", path, texts }],
  };
}

function bash(command: string, cwd: string | undefined): Classified {
  const reading = readCommand(command);
  const flat = oneLine(command, 200);
  const expects: Expectation[] = [
    ...reading.removes.map((r) => ({
      kind: "absent" as const,
      path: absolutePath(r.path, joinCwd(cwd, r.cwd)),
    })),
    ...reading.creates.map((c) => ({
      kind: "exists" as const,
      path: absolutePath(c.path, joinCwd(cwd, c.cwd)),
    })),
  ];
  const kind = reading.kind === "look" ? "read" : reading.kind;
  return {
    kind,
    action: `${
      kind === "commit" && reading.pushes ? "commit+push" : kind === "read" ? "look" : kind
    }: ${flat}`,
    paths: expects.map((e) => e.kind === "commit" ? "" : e.path).filter((p) => p !== ""),
    step: `bash:${command.trim().replace(/\s+/g, " ")}`,
    expects,
  };
}

function absolutePath(path: string, cwd: string | undefined): string {
  if (isAbsolute(path) || cwd === undefined) return path;
  return resolve(cwd, path);
}

function joinCwd(cwd: string | undefined, inner: string | undefined): string | undefined {
  if (inner === undefined) return cwd;
  return cwd === undefined ? inner : resolve(cwd, inner);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
