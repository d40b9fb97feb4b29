/**
 * What a tool call did, in a line: the key input of the tools a session uses
 * most, the files a call changed, and the todo list TodoWrite (older
 * versions) or TaskCreate/TaskUpdate (newer ones) maintain.
 *
 * @module
 */

import type { ToolUseBlock } from "./model.ts";

/** One todo and its status (`pending`, `in_progress`, `completed`). */
export interface Todo {
  content: string;
  status: string;
}

const DETAIL_LIMIT = 200;
/** The tools that create or change a file. */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set([
  "Edit",
  "MultiEdit",
  "Write",
  "NotebookEdit",
]);

/**
 * The input keys that {@linkcode toolDetail}, {@linkcode touchedFile},
 * {@linkcode todoWriteList} and {@linkcode TaskList} read, so a reader can
 * decode only these (scan_assistant.ts); it needs the whole input only when
 * {@linkcode keyedDetail} finds nothing in them.
 */
export const TOOL_INPUT_KEYS: ReadonlySet<string> = new Set([
  "command",
  "file_path",
  "notebook_path",
  "pattern",
  "path",
  "url",
  "query",
  "subject",
  "taskId",
  "status",
  "description",
  "todos",
]);

/** The tool's key input for a one-line summary: a command, a path, a pattern, a URL. */
export function toolDetail(tool: ToolUseBlock): string {
  const input = tool.input;
  const detail = keyedDetail(input) ??
    Object.values(input).find((value) => typeof value === "string") as string | undefined ?? "";
  return oneLine(detail, DETAIL_LIMIT);
}

/**
 * The detail from the keys {@linkcode TOOL_INPUT_KEYS} names; undefined when
 * none has one, and {@linkcode toolDetail} falls back to the input's first string.
 */
export function keyedDetail(input: Record<string, unknown>): string | undefined {
  const text = (key: string) => typeof input[key] === "string" ? input[key] as string : undefined;
  return text("command") ?? text("file_path") ?? text("notebook_path") ??
    (text("pattern") !== undefined
      ? `${text("pattern")}${text("path") ? ` in ${text("path")}` : ""}`
      : undefined) ??
    text("url") ?? text("query") ?? text("subject") ?? taskUpdate(input) ?? text("description") ??
    (Array.isArray(input.todos) ? `${input.todos.length} todos` : undefined);
}

/** The file a call created or changed, if it is an editing tool. */
export function touchedFile(tool: ToolUseBlock): string | undefined {
  return FILE_CHANGING_TOOLS.has(tool.name) ? filePathOf(tool) : undefined;
}

/** The file a call names (`file_path` or `notebook_path`), whatever the tool. */
export function filePathOf(tool: Pick<ToolUseBlock, "input">): string | undefined {
  const path = tool.input.file_path ?? tool.input.notebook_path;
  return typeof path === "string" && path !== "" ? path : undefined;
}

/** `file` relative to `cwd` when it lies inside it, else as it is. */
export function relativeToCwd(cwd: string | undefined, file: string): string {
  return cwd && (file.startsWith(`${cwd}/`) || file.startsWith(`${cwd}\\`))
    ? file.slice(cwd.length + 1)
    : file;
}

/** The todo list as a TodoWrite call sets it, or undefined if the call is not one. */
export function todoWriteList(tool: ToolUseBlock): Todo[] | undefined {
  if (tool.name !== "TodoWrite" || !Array.isArray(tool.input.todos)) return undefined;
  return tool.input.todos.flatMap((todo: unknown) => {
    if (typeof todo !== "object" || todo === null) return [];
    const { content, status } = todo as Record<string, unknown>;
    return typeof content === "string"
      ? [{ content, status: typeof status === "string" ? status : "pending" }]
      : [];
  });
}

/**
 * The task list built by TaskCreate and TaskUpdate calls. Claude Code numbers
 * a session's tasks 1, 2, 3... in creation order, and TaskUpdate names them by
 * that number, so the ids are counted here rather than read from the results.
 */
export class TaskList {
  #tasks = new Map<string, Todo>();
  #created = 0;

  /** Apply a call; returns false when it is not a task call. */
  apply(tool: ToolUseBlock): boolean {
    const input = tool.input;
    if (tool.name === "TaskCreate" && typeof input.subject === "string") {
      this.#tasks.set(String(++this.#created), { content: input.subject, status: "pending" });
      return true;
    }
    if (tool.name !== "TaskUpdate" || input.taskId === undefined) return false;
    const id = String(input.taskId);
    const task = this.#tasks.get(id);
    if (input.status === "deleted") this.#tasks.delete(id);
    else if (task) {
      if (typeof input.status === "string") task.status = input.status;
      if (typeof input.subject === "string") task.content = input.subject;
    }
    return true;
  }

  /** The tasks in creation order. */
  list(): Todo[] {
    return [...this.#tasks.values()].map((task) => ({ ...task }));
  }
}

const INTERRUPTED_RESULT = /^\[Request interrupted by user/i;
const REJECTED_RESULT =
  /doesn't want to proceed with this tool use|tool use was rejected|user rejected/i;

/**
 * Whether a failed tool result is the user turning the call down rather than
 * the tool failing: `interrupted` (Esc while it ran) or `rejected` (refused
 * at the permission prompt). Undefined for a real failure.
 */
export function userRefusal(resultText: string): "interrupted" | "rejected" | undefined {
  if (INTERRUPTED_RESULT.test(resultText)) return "interrupted";
  return REJECTED_RESULT.test(resultText) ? "rejected" : undefined;
}

/** `text` on one line, cut to `limit` characters with a visible marker. */
export function oneLine(text: string, limit: number): string {
  // Most texts are one line: the regex would try every space in them for nothing.
  const flat = (text.includes("\n") ? text.replace(/\s*\n\s*/g, " ⏎ ") : text).trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

function taskUpdate(input: Record<string, unknown>): string | undefined {
  if (input.taskId === undefined) return undefined;
  return `task ${input.taskId}${typeof input.status === "string" ? ` → ${input.status}` : ""}`;
}
