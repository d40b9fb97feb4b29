/**
 * A transcript read whole for an export: every turn in order with all its
 * blocks (text, thinking, tool calls with their full input, tool results with
 * their full text and images), streamed line by line so a long session costs
 * one line's memory at a time. Lines no reader of a conversation wants
 * (snapshots, API request records, attachments, metadata) are recognised by
 * their peeked type and never parsed. Bad lines are skipped and counted, as
 * `readEntries` counts them.
 *
 * @module
 */

import { readFailure } from "../core/fs_checks.ts";
import type { ReadReport } from "./entries.ts";
import { TranscriptError } from "./entries.ts";
import { type RawLine, scanLines } from "./lines.ts";
import { peekType } from "./scan.ts";

/** An image as a message or a tool result carries it: base64 data, or a URL it names. */
export interface ExportImage {
  mediaType: string;
  data: string;
  /** Where an image given by URL is (it is named, never fetched). */
  url?: string;
}

/** One block of a turn, with everything an export shows of it. */
export type ExportBlock =
  | { kind: "text"; text: string }
  | { kind: "thinking"; text: string }
  | { kind: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | {
    kind: "tool_result";
    toolUseId: string;
    isError: boolean;
    text: string;
    images: ExportImage[];
    /** The subagent a Task/Agent call ran, when its result names it. */
    agentId?: string;
  }
  | { kind: "image"; image: ExportImage }
  /** A block of a type the export does not render (a document, a server tool's result). */
  | { kind: "omitted"; what: string };

/** A user or assistant line. */
export interface ExportTurn {
  role: "user" | "assistant";
  timestamp?: string;
  /** Subagent traffic written into the main transcript by older versions. */
  sidechain: boolean;
  /** Injected by Claude Code itself (caveats, "Continue from where you left off."). */
  meta: boolean;
  /** The summary written after a compaction. */
  compactSummary: boolean;
  /** Claude Code's synthetic error line ("Prompt is too long", not logged in). */
  apiError: boolean;
  model?: string;
  blocks: ExportBlock[];
}

/** A system line worth showing: a compaction, a slash command's output. */
export interface ExportEvent {
  subtype: string;
  text: string;
  timestamp?: string;
}

/** What the reader hands out, in file order. */
export type ExportItem = { kind: "turn"; turn: ExportTurn } | { kind: "event"; event: ExportEvent };

/** The system subtypes an export shows; turn timings and the like are bookkeeping. */
const SHOWN_SYSTEM = new Set(["compact_boundary", "local_command", "informational"]);
const READ_TYPES = new Set(["user", "assistant", "system"]);
const MAX_REPORTED = 10;
const decoder = new TextDecoder();

/** Stream the turns and events of the transcript at `path`; returns what was skipped. */
export function readExportItems(path: string, onItem: (item: ExportItem) => void): ReadReport {
  const report: ReadReport = {
    lines: 0,
    bytes: 0,
    corrupt: 0,
    corruptLines: [],
    truncated: false,
    oversized: 0,
    oversizedLines: [],
  };
  let summary;
  try {
    summary = scanLines(path, (line) => visit(line, report, onItem));
  } catch (error) {
    if (
      error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied ||
      error instanceof Deno.errors.IsADirectory
    ) {
      throw new TranscriptError(readFailure(path, error));
    }
    throw error;
  }
  report.lines = summary.lines;
  report.bytes = summary.bytes;
  return report;
}

function visit(line: RawLine, report: ReadReport, onItem: (item: ExportItem) => void): void {
  let bytes = line.bytes;
  if (line.number === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    bytes = line.bytes = bytes.subarray(3);
    line.latin1 = line.latin1.slice(3);
  }
  if (bytes.length === 0 || line.latin1.trim() === "") return;
  if (line.oversized) {
    if (line.unterminated) report.truncated = true;
    report.oversized++;
    if (report.oversizedLines.length < MAX_REPORTED) report.oversizedLines.push(line.number);
    return;
  }
  const type = peekType(line);
  if (type !== undefined && !READ_TYPES.has(type)) return;
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    if (line.unterminated) report.truncated = true;
    else {
      report.corrupt++;
      if (report.corruptLines.length < MAX_REPORTED) report.corruptLines.push(line.number);
    }
    return;
  }
  const item = toItem(value);
  if (item !== undefined) onItem(item);
}

type Json = Record<string, unknown>;

/** The item of one parsed line, or undefined for a line an export does not show. */
export function toItem(value: unknown): ExportItem | undefined {
  if (!isObject(value)) return undefined;
  if (value.type === "system") {
    const subtype = str(value.subtype) ?? "";
    const text = str(value.content) ?? "";
    if (!SHOWN_SYSTEM.has(subtype) || (text === "" && subtype !== "compact_boundary")) {
      return undefined;
    }
    return { kind: "event", event: { subtype, text, timestamp: str(value.timestamp) } };
  }
  if (value.type !== "user" && value.type !== "assistant") return undefined;
  const message = value.message;
  if (!isObject(message)) return undefined;
  const content = message.content;
  const blocks: ExportBlock[] = typeof content === "string"
    ? [{ kind: "text", text: content }]
    : Array.isArray(content)
    ? content.flatMap((block) => toBlocks(block, value))
    : [];
  if (blocks.length === 0) return undefined;
  return {
    kind: "turn",
    turn: {
      role: value.type,
      timestamp: str(value.timestamp),
      sidechain: value.isSidechain === true,
      meta: value.isMeta === true,
      compactSummary: value.isCompactSummary === true,
      apiError: value.isApiErrorMessage === true,
      model: str(message.model),
      blocks,
    },
  };
}

function toBlocks(block: unknown, line: Json): ExportBlock[] {
  if (!isObject(block)) return [];
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? [{ kind: "text", text: block.text }] : [];
    case "thinking":
      return typeof block.thinking === "string" && block.thinking !== ""
        ? [{ kind: "thinking", text: block.thinking }]
        : [];
    case "redacted_thinking":
      return [{ kind: "thinking", text: "(thinking redacted by the API)" }];
    case "tool_use":
      return typeof block.name === "string"
        ? [{
          kind: "tool_use",
          id: str(block.id) ?? "",
          name: block.name,
          input: isObject(block.input) ? block.input : {},
        }]
        : [];
    case "tool_result":
      return [toResult(block, line)];
    case "image": {
      const image = toImage(block);
      return image === undefined ? [] : [{ kind: "image", image }];
    }
    default:
      // Named, so a reader knows something was there.
      return typeof block.type === "string"
        ? [{ kind: "omitted", what: `a ${block.type} block` }]
        : [];
  }
}

function toResult(block: Json, line: Json): ExportBlock {
  const texts: string[] = [];
  const images: ExportImage[] = [];
  const content = block.content;
  if (typeof content === "string") texts.push(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (!isObject(part)) continue;
      if (part.type === "text" && typeof part.text === "string") texts.push(part.text);
      const image = part.type === "image" ? toImage(part) : undefined;
      if (image !== undefined) images.push(image);
    }
  }
  const copy = line.toolUseResult;
  return {
    kind: "tool_result",
    toolUseId: str(block.tool_use_id) ?? "",
    isError: block.is_error === true,
    text: texts.join("\n"),
    images,
    agentId: isObject(copy) ? str(copy.agentId) : undefined,
  };
}

function toImage(block: Json): ExportImage | undefined {
  const source = block.source;
  if (isObject(source) && source.type === "url" && typeof source.url === "string") {
    return { mediaType: "url", data: "", url: source.url };
  }
  if (!isObject(source) || source.type !== "base64") return undefined;
  const mediaType = str(source.media_type);
  const data = str(source.data);
  return mediaType === undefined || data === undefined ? undefined : { mediaType, data };
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
