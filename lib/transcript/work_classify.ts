/**
 * What one tool call is, as work: a file written or edited, a command (a
 * commit, a push, a test run, a removal, a look-around), a read, a search,
 * and what the live folder or repository should hold if it succeeded.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { isAbsolute, resolve } from "../core/path.ts";
import type { ToolUseBlock } from "./model.ts";
import { readCommand } from "./shell_command.ts";
import { FILE_CHANGING_TOOLS, filePathOf, oneLine, toolDetail } from "./tools.ts";

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
  | { kind: "commit"; commit: SessionCommit }
  | { kind: "pushed"; ref: string; sha?: string };

const READ_TOOLS = new Set(["Read", "NotebookRead", "BashOutput"]);
const SEARCH_TOOLS = new Set(["Glob", "Grep", "LS", "WebFetch", "WebSearch", "ToolSearch"]);

/** A call's kind, one-line action, files, retry step and expectations. */
export type Classified = {
  kind: WorkKind;
  /** One line: what was done. */
  action: string;
  /** Absolute paths of the files the call is about. */
  paths: string[];
  /** Calls with the same step are attempts at the same thing (for retries). */
  step: string;
  expects: Expectation[];
};

/** What a tool call is, and what it leaves behind if it succeeds. */
export function classifyCall(tool: ToolUseBlock, cwd: string | undefined): Classified {
  const input = tool.input;
  const filePath = filePathOf(tool) ?? text(input.path);
  const absolute = filePath === undefined ? undefined : absolutePath(filePath, cwd);
  if (FILE_CHANGING_TOOLS.has(tool.name) && absolute !== undefined) {
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
    paths: expects.flatMap((e) => "path" in e ? [e.path] : []),
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
