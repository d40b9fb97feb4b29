/**
 * The refresh skeleton (spec 11.14 step 4, DESIGN.md section 5.4): one
 * streaming pass over a transcript that keeps what a fresh session needs to
 * take over a long one — the original intent, the files modified and read,
 * the lines marked `[important]`, the tool errors, and the last turns — and
 * hands out the filtered transcript (conversation text and one line per tool
 * call, no tool output) as it goes, so neither grows with the file in memory.
 *
 * @module
 */

import { readEntries, type ReadReport, TranscriptError } from "./entries.ts";
import type { RawLine } from "./lines.ts";
import type { AssistantEntry, Entry, ToolUseBlock, UserEntry } from "./model.ts";
import { assistantText, isSidechain, realAsk } from "./noise.ts";
import { peekToolResults, peekTrue } from "./scan.ts";
import { peekAssistant, type PeekAssistantOptions } from "./scan_assistant.ts";
import { FILE_CHANGING_TOOLS, filePathOf, oneLine, relativeToCwd, userRefusal } from "./tools.ts";

/** Tool errors of one tool on one target. */
export interface ErrorGroup {
  tool: string;
  target: string;
  count: number;
  /** The first line of the latest error message. */
  lastMessage: string;
}

/** One turn of the recent context. */
export interface Turn {
  role: "user" | "assistant";
  text: string;
}

/** What the skeleton pass found. */
export interface SkeletonData {
  /** The first real user message. */
  intent?: string;
  /** Files changed, in first-change order, with the tools that changed them. */
  modified: Map<string, Set<string>>;
  /** Files read and never changed, in first-read order. */
  read: string[];
  /** Lines starting `[important]`, verbatim, in order. */
  important: string[];
  /** Tool errors grouped by tool and target, in first-seen order. */
  errors: ErrorGroup[];
  /** The last turns, oldest first. */
  recent: Turn[];
  /** The session's working directory, which file paths are shown relative to. */
  cwd?: string;
  report: ReadReport;
}

/** Options for {@linkcode collectSkeleton}. */
export interface SkeletonOptions {
  /** Receives the filtered transcript, in order, piece by piece. */
  onTranscript?: (markdown: string) => void;
}

/** A transcript the skeleton cannot be built from; refresh goes on without one (spec 12). */
export class SkeletonError extends TranscriptError {
  constructor(message: string) {
    super(message);
    this.name = "SkeletonError";
  }
}

const CONVERSATION: ReadonlySet<string> = new Set(["user", "assistant"]);
const RECENT_TURNS = 10;
const TURN_CHARS = 400;
const MESSAGE_CHARS = 200;
/** Longest turn kept as said until the end; a longer one is cut for the recent context at once. */
const KEEP_WHOLE = 16_384;
/** Bounds that keep memory flat on a pathological transcript. */
const MAX_FILES = 2_000;
const MAX_IMPORTANT = 200;
const MAX_ERROR_GROUPS = 500;

const READ_TOOLS = new Set(["Read", "NotebookRead"]);
const IMPORTANT = /^\s*\[important\]/i;
/** A text no line of which can match {@linkcode IMPORTANT} is not split into lines. */
const MENTIONS_IMPORTANT = /\[important\]/i;
const NOT_AN_INTENT = /<command-name>|<task-notification>|^This session is being continued from/;

/** Read the transcript at `path` and keep what the skeleton shows. */
export function collectSkeleton(path: string, options: SkeletonOptions = {}): SkeletonData {
  const state = new SkeletonState(options.onTranscript ?? (() => {}));
  const report = readEntries(path, (entry) => state.take(entry), {
    types: CONVERSATION,
    preview: (type, line) => state.preview(type, line),
  });
  state.validate(path);
  return state.finish(report);
}

/**
 * The input keys {@linkcode toolSummary} and `filePathOf` read, so assistant
 * lines are read without decoding the rest (a Write's whole file, an Edit's
 * strings); a call they say nothing about gets its whole input.
 */
export const SUMMARY_INPUT: PeekAssistantOptions = {
  inputKeys: new Set(["description", "command", "pattern", "path", "file_path", "notebook_path"]),
  wholeInput: (name, input) =>
    !(name.startsWith("mcp__") || name === "Bash" || name === "Grep" || name === "Glob" ||
      filePathOf({ input }) !== undefined),
};

/** The one-line summary of a tool call the filtered transcript shows. */
export function toolSummary(tool: ToolUseBlock): string {
  const input = tool.input;
  const text = (key: string) => typeof input[key] === "string" ? input[key] as string : undefined;
  if (tool.name.startsWith("mcp__")) return tool.name;
  if (tool.name === "Bash") {
    return `Bash: ${oneLine(text("description") ?? text("command") ?? "", 200)}`;
  }
  if (tool.name === "Grep" || tool.name === "Glob") {
    const where = text("path");
    return `${tool.name}: ${text("pattern") ?? ""}${where ? ` in ${where}` : ""}`;
  }
  const file = filePathOf(tool);
  if (file !== undefined) return `${tool.name}: ${file}`;
  const first = Object.values(input).find((value) => typeof value === "string") as
    | string
    | undefined;
  return first === undefined ? tool.name : `${tool.name}: ${oneLine(first, 200)}`;
}

class SkeletonState {
  intent?: string;
  cwd?: string;
  modified = new Map<string, Set<string>>();
  read = new Set<string>();
  important: string[] = [];
  errors = new Map<string, ErrorGroup>();
  /** The last turns as said; each is put on one line only in `finish`, as most turns fall out. */
  recent: Array<Turn & { flat?: string }> = [];
  pending = new Map<string, ToolUseBlock>();
  conversationLines = 0;
  problems: string[] = [];
  lastRole?: Turn["role"];

  constructor(readonly emit: (markdown: string) => void) {}

  /**
   * Assistant lines are read from the raw bytes (scan_assistant.ts), and
   * results that carry no error are matched to their calls unparsed.
   */
  preview(type: string, line: RawLine): boolean {
    if (type !== "user" && type !== "assistant") return false;
    if (peekTrue(line, "isSidechain")) return true;
    if (type === "assistant") {
      const entry = peekAssistant(line, SUMMARY_INPUT);
      if (entry !== undefined) this.#assistant(entry);
      return entry !== undefined;
    }
    const results = peekToolResults(line);
    if (results === undefined || results.isError) return false;
    this.conversationLines++;
    for (const id of results.ids) this.pending.delete(id);
    return true;
  }

  take(entry: Entry): void {
    if (entry.type === "user") this.#user(entry);
    else if (entry.type === "assistant") this.#assistant(entry);
  }

  validate(path: string): void {
    if (this.conversationLines === 0) {
      throw new SkeletonError(`${path} has no user or assistant messages to build a skeleton from`);
    }
    if (this.problems.length > 0) {
      throw new SkeletonError(
        `${path} is not a transcript the skeleton can read: ${this.problems[0]}`,
      );
    }
  }

  finish(report: ReadReport): SkeletonData {
    const relative = (file: string) => relativeToCwd(this.cwd, file);
    const modified = new Map([...this.modified].map(([file, tools]) => [relative(file), tools]));
    return {
      intent: this.intent,
      modified,
      read: [...this.read].map(relative).filter((file) => !modified.has(file)),
      important: this.important,
      errors: [...this.errors.values()].map((group) => ({
        ...group,
        target: relative(group.target),
      })),
      recent: this.recent.map(({ role, text, flat }) => ({
        role,
        text: flat ?? oneLine(text, TURN_CHARS),
      })),
      cwd: this.cwd,
      report,
    };
  }

  #user(entry: UserEntry): void {
    if (isSidechain(entry)) return;
    this.conversationLines++;
    if (entry.cwd) this.cwd = entry.cwd;
    if (typeof entry.content !== "string") {
      for (const block of entry.content) {
        if (block.type === "tool_result") this.#result(block.tool_use_id, block);
      }
    }
    const ask = realAsk(entry);
    if (ask === undefined) return;
    if (this.intent === undefined && !NOT_AN_INTENT.test(rawText(entry))) this.intent = ask;
    this.#say("user", ask);
  }

  #assistant(entry: AssistantEntry): void {
    if (isSidechain(entry)) return;
    this.conversationLines++;
    if (entry.cwd) this.cwd = entry.cwd;
    const text = assistantText(entry);
    if (text !== undefined) this.#say("assistant", text);
    for (const block of entry.content) {
      if (block.type === "tool_use") this.#call(block);
    }
  }

  #say(role: Turn["role"], text: string): void {
    this.#heading(role);
    this.emit(`${text}\n\n`);
    // A bracket search is native and nearly always fails; the regex is not.
    if (text.includes("[") && MENTIONS_IMPORTANT.test(text)) {
      for (const line of text.split("\n")) {
        if (IMPORTANT.test(line) && this.important.length < MAX_IMPORTANT) {
          this.important.push(line.trimEnd());
        }
      }
    }
    // A long text is cut now, so memory stays flat whatever the turns' size.
    const flat = text.length > KEEP_WHOLE ? oneLine(text, TURN_CHARS) : undefined;
    this.recent.push(flat === undefined ? { role, text } : { role, text: "", flat });
    if (this.recent.length > RECENT_TURNS) this.recent.shift();
  }

  #call(tool: ToolUseBlock): void {
    if (tool.id === "") this.#problem(`a ${tool.name} call has no id`);
    const file = filePathOf(tool);
    if ((FILE_CHANGING_TOOLS.has(tool.name) || READ_TOOLS.has(tool.name)) && file === undefined) {
      this.#problem(`a ${tool.name} call has no file path`);
    }
    this.#heading("assistant");
    this.emit(`**Tool: ${toolSummary(tool)}**\n\n`);
    this.pending.set(tool.id, tool);
    if (file === undefined) return;
    if (FILE_CHANGING_TOOLS.has(tool.name)) {
      const tools = this.modified.get(file);
      if (tools !== undefined) tools.add(tool.name);
      else if (this.modified.size < MAX_FILES) this.modified.set(file, new Set([tool.name]));
    } else if (READ_TOOLS.has(tool.name) && this.read.size < MAX_FILES) {
      this.read.add(file);
    }
  }

  #result(id: string, result: { is_error?: boolean; text?: string }): void {
    const tool = this.pending.get(id);
    this.pending.delete(id);
    if (!result.is_error || tool === undefined) return;
    const message = result.text ?? "";
    // The user turning a call down is a choice, not a failure.
    if (userRefusal(message) !== undefined) return;
    const target = filePathOf(tool) ?? toolSummary(tool).replace(/^[^:]*: /, "");
    const key = `${tool.name}\u0000${target}`;
    const group = this.errors.get(key);
    const lastMessage = oneLine(firstLine(message), MESSAGE_CHARS);
    if (group !== undefined) {
      group.count++;
      group.lastMessage = lastMessage;
    } else if (this.errors.size < MAX_ERROR_GROUPS) {
      this.errors.set(key, { tool: tool.name, target, count: 1, lastMessage });
    }
  }

  /** Each user message gets its heading; an assistant's run of lines shares one. */
  #heading(role: Turn["role"]): void {
    if (this.lastRole === role && role === "assistant") return;
    this.lastRole = role;
    this.emit(role === "user" ? "## User\n\n" : "## Assistant\n\n");
  }

  #problem(text: string): void {
    if (this.problems.length < 5) this.problems.push(text);
  }
}

function rawText(entry: UserEntry): string {
  return typeof entry.content === "string"
    ? entry.content
    : entry.content.map((block) => block.type === "text" ? block.text : "").join("\n");
}

function firstLine(text: string): string {
  const cleaned = text.replace(/<\/?tool_use_error>/g, "").trim();
  const newline = cleaned.indexOf("\n");
  return newline === -1 ? cleaned : cleaned.slice(0, newline);
}
