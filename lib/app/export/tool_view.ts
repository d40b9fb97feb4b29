/**
 * What an export shows of a tool call and of its result, decided once for
 * both formats: a Bash command is a code block, an edit a diff, a write the
 * file's content, a Task its prompt, anything else its input as JSON; a
 * result is short (shown) or long (collapsed, with its size). The Markdown
 * and HTML views only spell these out.
 *
 * @module
 */

import { formatSize } from "../../core/format.ts";

/** A line of a diff. */
export interface DiffLine {
  sign: "-" | "+";
  text: string;
}

/** How a tool call is shown. */
export interface ToolCallView {
  /** The tool's name. */
  title: string;
  /** One line beside the name: a description, a path. */
  detail?: string;
  /** A code block (a shell command, a written file, a prompt, the input as JSON). */
  code?: { language: string; text: string };
  /** An edit, as removed and added lines, one hunk per edit. */
  diff?: DiffLine[][];
}

/** How a tool result is shown. */
export interface ToolResultView {
  /** "Result of Bash", "Error from Edit". */
  title: string;
  text: string;
  /** Long enough to be collapsed: its size, for the line that stands for it. */
  collapsed?: string;
}

/** Results longer than this many lines or characters are collapsed. */
const LONG_LINES = 20;
const LONG_CHARS = 2_000;

/** The view of a tool call named `name` with `input`. */
export function toolCallView(name: string, input: Record<string, unknown>): ToolCallView {
  const text = (key: string) => typeof input[key] === "string" ? input[key] as string : undefined;
  const file = text("file_path") ?? text("notebook_path");
  if (name === "Bash" && text("command") !== undefined) {
    return {
      title: name,
      detail: text("description"),
      code: { language: "bash", text: text("command")! },
    };
  }
  if (name === "Edit" && text("old_string") !== undefined) {
    return {
      title: name,
      detail: file,
      diff: [hunk(text("old_string")!, text("new_string") ?? "")],
    };
  }
  if (name === "MultiEdit" && Array.isArray(input.edits)) {
    const hunks = input.edits.flatMap((edit) =>
      typeof edit === "object" && edit !== null && typeof edit.old_string === "string"
        ? [hunk(edit.old_string, typeof edit.new_string === "string" ? edit.new_string : "")]
        : []
    );
    return { title: name, detail: file, diff: hunks };
  }
  if (name === "Write" && text("content") !== undefined) {
    return {
      title: name,
      detail: file,
      code: { language: languageOf(file), text: text("content")! },
    };
  }
  if ((name === "Task" || name === "Agent") && text("prompt") !== undefined) {
    return {
      title: name,
      detail: text("description") ?? text("subagent_type"),
      code: { language: "", text: text("prompt")! },
    };
  }
  const keys = Object.keys(input);
  if (
    keys.length === 1 && typeof input[keys[0]] === "string" &&
    !input[keys[0]]!.toString().includes("\n")
  ) {
    return { title: name, detail: input[keys[0]] as string };
  }
  return {
    title: name,
    detail: file,
    code: { language: "json", text: JSON.stringify(input, null, 2) },
  };
}

/** The view of a result of the call named `toolName` (undefined when the call was not seen). */
export function toolResultView(
  result: { text: string; isError: boolean },
  toolName: string | undefined,
): ToolResultView {
  const title = result.isError
    ? `Error${toolName === undefined ? "" : ` from ${toolName}`}`
    : `Result${toolName === undefined ? "" : ` of ${toolName}`}`;
  const lines = countLines(result.text);
  const long = lines > LONG_LINES || result.text.length > LONG_CHARS;
  const bytes = new TextEncoder().encode(result.text).length;
  return {
    title,
    text: result.text,
    collapsed: long
      ? `${formatSize(bytes)}, ${lines} ${lines === 1 ? "line" : "lines"}`
      : undefined,
  };
}

function hunk(before: string, after: string): DiffLine[] {
  return [
    ...before.split("\n").map((text) => ({ sign: "-" as const, text })),
    ...after.split("\n").map((text) => ({ sign: "+" as const, text })),
  ];
}

function countLines(text: string): number {
  if (text === "") return 0;
  let count = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return text.endsWith("\n") ? count - 1 : count;
}

const LANGUAGES: Record<string, string> = {
  ts: "ts",
  tsx: "tsx",
  js: "js",
  mjs: "js",
  py: "python",
  sh: "bash",
  rs: "rust",
  go: "go",
  md: "markdown",
  json: "json",
  html: "html",
  css: "css",
  yml: "yaml",
  yaml: "yaml",
};

function languageOf(file: string | undefined): string {
  const extension = file?.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase();
  return (extension && LANGUAGES[extension]) ?? "";
}
