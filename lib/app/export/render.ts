/**
 * The parts an export is made of, in the order the flow hands them out, and
 * the interface both views (Markdown, HTML) implement: the flow decides what
 * is shown (export_session.ts), a view only spells it out, writing as it
 * goes so a long session never sits in memory.
 *
 * @module
 */

import type { ExportImage } from "../../transcript/export_read.ts";
import type { ToolCallView, ToolResultView } from "./tool_view.ts";

/** The session's facts, at the top. */
export interface ExportHeader {
  title: string;
  sessionId: string;
  folder?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  /** Tokens in context at the last assistant turn. */
  contextTokens?: number;
  /** The last measured size the list shows (cmv's preTrimTokens). */
  listedTokens?: string;
  model?: string;
  /** Where the transcript was read: claude's folder, or the vault (claude deleted it). */
  source: string;
}

/** What the end of an export says. */
export interface ExportFooter {
  /** The skipped-lines clause, or null. */
  skipped: string | null;
  /** How many secrets --redact replaced; undefined without --redact. */
  redacted?: number;
  /** Subagent conversations that could not be read, by id. */
  unreadable: string[];
  /** Lines of subagent transcripts skipped. */
  subagentSkipped: number;
}

/** One of the views. */
export interface ExportView {
  begin(header: ExportHeader): void;
  /** A new speaker: `who` is "User", "Claude", or a subagent's name for its turns. */
  heading(who: "user" | "assistant", timestamp: string | undefined): void;
  /** A user's words (shown as typed) or Claude's (Markdown). */
  text(who: "user" | "assistant", text: string): void;
  /** A collapsed block: thinking, what Claude Code injected, a compaction summary. */
  collapsed(label: string, text: string): void;
  toolCall(view: ToolCallView): void;
  toolResult(view: ToolResultView): void;
  image(image: ExportImage): void;
  /** Something the export does not render, named (`what`: "a document block"). */
  omitted(what: string): void;
  /** A system event: a compaction, a slash command's output. */
  event(label: string, text: string, timestamp: string | undefined): void;
  /** A subagent's conversation starts (nested under the call that ran it) or ends. */
  subagentBegin(label: string): void;
  subagentEnd(): void;
  end(footer: ExportFooter): void;
}

/** `2026-11-28T21:06:40.123Z` as `2026-11-28 21:06:40 UTC`; anything else as it is. */
export function shownTime(timestamp: string | undefined): string | undefined {
  if (timestamp === undefined) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(timestamp);
  return match ? `${match[1]} ${match[2]} UTC` : timestamp;
}

/** The image types a view shows inline; anything else is named, not embedded. */
export const INLINE_IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);

/** Whether `image` can be embedded as a data URL as it is (a known type, plain base64). */
export function embeddable(image: ExportImage): boolean {
  return INLINE_IMAGE_TYPES.has(image.mediaType) && /^[A-Za-z0-9+/]*={0,2}$/.test(image.data);
}
