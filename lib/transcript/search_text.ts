/**
 * The searchable text of a transcript, for `claudecm find`: what the user
 * typed, what the assistant wrote, the tool calls it made (commands, paths,
 * patterns) and, kept apart so a search can leave it out, what the tools
 * answered (whole: a word anywhere in an output is found, as grep finds it).
 * A line's pieces can be read back from where the line is
 * ({@linkcode docsOfLineAt}), which a query does for its snippets: this
 * module loads no file reader (search_text_file.ts reads whole files). Only
 * the `message` of a line is parsed: the `toolUseResult` copy beside it is
 * often the bigger half and is skipped.
 *
 * @module
 */

import {
  asJsonBytes,
  type JsonBytes,
  keyBytes,
  LBRACKET,
  type PeekInput,
  skipValue,
} from "./json_bytes.ts";
import { decodeJsonString, findKey, stringAt, valueAt, walkArray } from "./json_read.ts";
import { cleanPrompt } from "./noise.ts";
import { peekType, peekValues } from "./scan.ts";

/** Who a piece of text came from. `tool` is a call, `tool_output` its answer. */
export type SearchRole = "user" | "assistant" | "tool" | "tool_output";

/** One searchable piece of a transcript line. */
export interface SearchDoc {
  role: SearchRole;
  text: string;
  /** The line's ISO timestamp, when it has one. */
  timestamp: string | undefined;
}

/** What a transcript says about its session, gathered while reading it. */
export interface SessionFacts {
  /** The latest `custom-title`. */
  customTitle?: string;
  /** The latest `ai-title`. */
  aiTitle?: string;
  /** The first prompt the user really typed (no commands, no injected lines). */
  firstPrompt?: string;
  /** The first working folder a line records. */
  cwd?: string;
  /** Where `/cd` moved the session last (the latest `relocated` record). */
  relocatedCwd?: string;
  /** The latest timestamp of any line. */
  lastActivity?: string;
  /** The first prompt came from `claude -p` (claudecm's own helper calls). */
  printMode?: boolean;
  /** Whether any user or assistant line was seen. */
  conversation?: boolean;
}

/**
 * How much of each tool call is searchable: its start, where the command,
 * path or pattern comes first (a call that writes a file carries the file).
 */
export const TOOL_TEXT_LIMIT = 4 * 1024;
/** A pasted prompt or a long answer is kept up to this many characters. */
export const MESSAGE_TEXT_LIMIT = 256 * 1024;
/**
 * Terminal colour and title sequences, which tools' output keeps: left in,
 * `\x1b[31mFAILED` is the word `31mfailed` to a search.
 */
// deno-lint-ignore no-control-regex -- control sequences are exactly what it removes
const TERMINAL_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?)/g;

const decoder = new TextDecoder();
const CONTENT_KEY = keyBytes("content");
const TYPE_KEY = keyBytes("type");

/** The top-level keys a line's docs and facts come from, read in one walk. */
const LINE_KEYS = [
  "timestamp",
  "cwd",
  "isMeta",
  "isCompactSummary",
  "isApiErrorMessage",
  "message",
  "promptSource",
  "entrypoint",
  "isSidechain",
] as const;
type LineValues = Partial<Record<(typeof LINE_KEYS)[number], Uint8Array>>;

/** Where a line is in its transcript. */
export interface LinePlace {
  lineAt: number;
  lineLength: number;
}

/** The docs of one raw line, updating `facts` on the way. */
export function docsOfLine(
  input: PeekInput,
  facts: SessionFacts,
  options: { withoutToolOutput?: boolean } = {},
): SearchDoc[] {
  const line = asJsonBytes(input);
  const type = peekType(line);
  if (type === "relocated") {
    const value = parsed(line.bytes);
    if (typeof value?.relocatedCwd === "string") facts.relocatedCwd = value.relocatedCwd;
    return [];
  }
  if (type === "custom-title" || type === "ai-title") {
    const value = parsed(line.bytes);
    if (type === "custom-title" && typeof value?.customTitle === "string") {
      facts.customTitle = value.customTitle;
    }
    if (type === "ai-title" && typeof value?.aiTitle === "string") facts.aiTitle = value.aiTitle;
    return [];
  }
  // A tool result's copy (`toolUseResult`) follows the keys wanted here and can be huge; only
  // `cwd` comes after it, and it is needed once.
  const values = peekValues(
    line,
    LINE_KEYS,
    facts.cwd === undefined ? undefined : "toolUseResult",
  );
  const timestamp = jsonString(values.timestamp);
  if (timestamp !== undefined && (facts.lastActivity ?? "") < timestamp) {
    facts.lastActivity = timestamp;
  }
  if (type !== "user" && type !== "assistant") return [];
  facts.cwd ??= jsonString(values.cwd);
  if (isTrue(values.isMeta) || isTrue(values.isCompactSummary)) return [];
  if (type === "assistant" && isTrue(values.isApiErrorMessage)) return [];
  const content = values.message === undefined
    ? undefined
    : options.withoutToolOutput
    ? contentWithoutToolOutput(line, values.message)
    : parsed(values.message)?.content;
  facts.conversation = true;
  const docs: SearchDoc[] = [];
  const add = (role: SearchRole, raw: string | undefined, limit: number) => {
    const text = raw?.includes("\x1b") ? raw.replace(TERMINAL_SEQUENCE, "") : raw;
    if (text !== undefined && text.trim() !== "") {
      docs.push({ role, text: text.length > limit ? text.slice(0, limit) : text, timestamp });
    }
  };
  // A subagent's "user" lines are its prompt, which Claude wrote: the user typed none of it.
  const typedBy = type === "user" && !isTrue(values.isSidechain) ? "user" : "assistant";
  if (typeof content === "string") {
    if (typedBy === "user") userText(content, facts, values, add);
    else add("assistant", content, MESSAGE_TEXT_LIMIT);
    return docs;
  }
  if (!Array.isArray(content)) return docs;
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    else if (block.type === "tool_use") add("tool", toolCallText(block), TOOL_TEXT_LIMIT);
    else if (block.type === "tool_result" && !options.withoutToolOutput) {
      add("tool_output", plainText(block), Infinity);
    }
  }
  if (texts.length > 0) {
    if (typedBy === "user") userText(texts.join("\n"), facts, values, add);
    else add("assistant", texts.join("\n"), MESSAGE_TEXT_LIMIT);
  }
  return docs;
}

/**
 * The docs of the line at `place` in `path`, read back (as an index's
 * snippet is); empty when the file no longer holds that line.
 */
export function docsOfLineAt(
  path: string,
  place: LinePlace,
  options: { withoutToolOutput?: boolean } = {},
): SearchDoc[] {
  const bytes = new Uint8Array(place.lineLength);
  const file = Deno.openSync(path, { read: true });
  try {
    file.seekSync(place.lineAt, Deno.SeekMode.Start);
    let got = 0;
    while (got < bytes.length) {
      const count = file.readSync(bytes.subarray(got));
      if (count === null || count === 0) return [];
      got += count;
    }
  } finally {
    file.close();
  }
  return docsOfLine(bytes, {}, options);
}

/**
 * A message's `content` with its tool results left unparsed: they are most
 * of a transcript's bytes, and skipping a string costs a native search where
 * parsing it costs a copy. Parsed whole when the walk cannot follow it.
 */
function contentWithoutToolOutput(line: JsonBytes, message: Uint8Array): unknown {
  const contentAt = findKey(line, message.byteOffset - line.bytes.byteOffset, CONTENT_KEY);
  if (contentAt === -1 || line.bytes[contentAt] !== LBRACKET) return parsed(message)?.content;
  const blocks: unknown[] = [];
  try {
    const end = walkArray(line, contentAt, (start) => {
      const end = skipValue(line, start);
      if (end === -1) return -1;
      if (stringAt(line, findKey(line, start, TYPE_KEY)) !== "tool_result") {
        blocks.push(valueAt(line, start, end));
      }
      return end;
    });
    if (end !== -1) return blocks;
  } catch {
    // Not valid JSON after all: JSON.parse below says so.
  }
  return parsed(message)?.content;
}

function userText(
  raw: string,
  facts: SessionFacts,
  values: LineValues,
  add: (role: SearchRole, text: string | undefined, limit: number) => void,
): void {
  const text = cleanPrompt(raw);
  if (text === undefined) return;
  const printed = jsonString(values.promptSource) === "sdk" ||
    jsonString(values.entrypoint) === "sdk-cli";
  if (facts.firstPrompt === undefined) {
    facts.firstPrompt = text.slice(0, 1000);
    facts.printMode = printed;
  } else if (!printed) {
    // A `claude -p` session that someone went on with by hand is a session like any other.
    facts.printMode = false;
  }
  add("user", text, MESSAGE_TEXT_LIMIT);
}

/** A call as text: the tool's name, then every string of its input (command, path, pattern...). */
function toolCallText(block: Record<string, unknown>): string {
  const parts = [typeof block.name === "string" ? block.name : ""];
  let length = parts[0].length;
  const walk = (value: unknown) => {
    if (length >= TOOL_TEXT_LIMIT) return;
    if (typeof value === "string") {
      parts.push(value);
      length += value.length + 1;
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  walk(block.input);
  return parts.join("\n");
}

/** A tool answer's text: a string, or the text of its blocks. */
function plainText(block: Record<string, unknown>): string | undefined {
  const content = block.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((part) =>
    typeof part === "object" && part !== null && typeof part.text === "string" ? part.text : ""
  ).filter((text) => text !== "").join("\n");
}

// deno-lint-ignore no-explicit-any
function parsed(bytes: Uint8Array): any {
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

/** A raw JSON string value as text (escapes and all: a Windows path is full of backslashes). */
function jsonString(raw: Uint8Array | undefined): string | undefined {
  if (raw === undefined || raw[0] !== 0x22) return undefined;
  if (!raw.includes(0x5c)) return decoder.decode(raw.subarray(1, raw.length - 1));
  return decodeJsonString(raw);
}

function isTrue(raw: Uint8Array | undefined): boolean {
  return raw !== undefined && raw[0] === 0x74; // "t" of true
}
