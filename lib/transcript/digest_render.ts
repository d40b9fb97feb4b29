/**
 * The digest as text, cut to a character budget. Sections come in priority
 * order; when the budget runs out the current section is clipped and the rest
 * omitted, and a note names both, so nothing disappears silently. The header
 * (with the incomplete-turn status), the note and the native resume line are
 * always kept.
 *
 * @module
 */

import { skippedLinesNote } from "./entries.ts";
import { UsageError } from "../core/errors.ts";
import type { DigestData } from "./digest.ts";

/** The digest text and what the budget cut. */
export interface RenderedDigest {
  text: string;
  budget: number;
  /** Sections shortened to fit. */
  clipped: string[];
  /** Sections left out entirely. */
  omitted: string[];
}

interface Section {
  name: string;
  heading: string;
  body: string;
}

/** Caps on single items, marked in the text when applied. */
const LIMITS = { instruction: 1_500, ask: 800, reply: 4_000, todo: 200 };
/** A section is clipped only if at least this much of its body fits; else omitted. */
const MIN_PARTIAL = 40;

/** The command that resumes `id` natively in Claude Code. */
export function resumeCommand(id: string): string {
  return `claude --resume ${id}`;
}

/** Render `data` within `budget` characters; throws a UsageError if even the frame does not fit. */
export function renderDigest(data: DigestData, budget: number): RenderedDigest {
  const header = headerOf(data);
  const footer = `\n\nFor a true native continuation, run this in a fresh terminal:\n${
    resumeCommand(data.sessionId)
  }\n`;
  const sections = sectionsOf(data);
  const full = header + sections.map(render).join("") + footer;
  if (full.length <= budget) return { text: full, budget, clipped: [], omitted: [] };

  // The longest note names every section; "clipped X; " costs at most 10 more than
  // listing X as omitted, and the note is set off by a blank line.
  const worstNote = (cut: number) => noteOf(cut, [], sections.map((s) => s.name)).length + 10 + 2;
  let room = budget - header.length - footer.length - worstNote(budget);
  if (room < 0) {
    // The note names the budget: the least that fits is found with its own number in the note.
    let needed = header.length + footer.length + worstNote(budget);
    while (header.length + footer.length + worstNote(needed) > needed) needed++;
    throw new UsageError(`--budget ${budget} is too small for this digest; use at least ${needed}`);
  }
  let body = "";
  const clipped: string[] = [];
  const omitted: string[] = [];
  for (const section of sections) {
    const text = render(section);
    if (omitted.length === 0 && clipped.length === 0 && text.length <= room) {
      body += text;
      room -= text.length;
      continue;
    }
    const space = room - `\n\n${section.heading}\n`.length;
    if (omitted.length === 0 && clipped.length === 0 && space >= MIN_PARTIAL) {
      const cut = clip(section.body, space);
      body += render({ ...section, body: cut });
      room -= render({ ...section, body: cut }).length;
      clipped.push(section.name);
    } else {
      omitted.push(section.name);
    }
  }
  const text = header + body + "\n\n" + noteOf(budget, clipped, omitted) + footer;
  return { text, budget, clipped, omitted };
}

function headerOf(data: DigestData): string {
  const lines = [`# Recovered session ${data.sessionId}`];
  const facts = [`last activity ${data.lastActivity ?? "unknown"}`];
  const skipped = skippedLinesNote(data.report);
  if (skipped !== null) facts.push(skipped);
  if (data.compactions > 0) facts.push(`compacted ${data.compactions}x`);
  lines.push(facts.join(" · "));
  if (data.incomplete.length > 0) lines.push("Status: the last turn may be incomplete.");
  return lines.join("\n");
}

/**
 * Transcript text made unable to pass for the digest's own lines: a line
 * that would read as a section heading or as the closing resume command
 * (`claude --resume <another id>`) is quoted with `> `. The digest is pasted
 * and followed; a transcript must not add to its structure.
 */
function inert(text: string): string {
  return text.replace(/^(?=[ \t]*(?:#|claude --resume|For a true native continuation))/gm, "> ");
}

/** One line: for fields that are one line in the digest (a title, a todo, a file). */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ");
}

function sectionsOf(data: DigestData): Section[] {
  const sections: Section[] = [];
  const add = (name: string, heading: string, body: string | undefined) => {
    if (body !== undefined && body.trim() !== "") {
      sections.push({ name, heading, body: inert(body) });
    }
  };
  const title = data.customTitle ?? data.aiTitle ?? data.summary;
  add("title", "## Title", title && oneLine(title));
  const instruction = data.lastPrompt ?? data.asks.at(-1);
  add(
    "last instruction",
    "## Last instruction",
    instruction && cap(instruction, LIMITS.instruction),
  );
  const asks = data.asks.filter((ask) => ask !== instruction);
  add(
    "recent asks",
    "## Recent asks (oldest first)",
    asks.map((ask, i) => `${i + 1}. ${cap(ask, LIMITS.ask)}`).join("\n"),
  );
  add(
    "last reply",
    "## Last assistant message",
    data.lastAssistantText && cap(data.lastAssistantText, LIMITS.reply),
  );
  add(
    "todos",
    "## Todos",
    data.todos?.map((todo) => `[${todo.status}] ${oneLine(cap(todo.content, LIMITS.todo))}`)
      .join("\n"),
  );
  add(
    "tool actions",
    "## Recent tool actions (oldest first)",
    data.toolActions.map((action) => `- ${oneLine(action.name)}: ${oneLine(action.detail)}`)
      .join("\n"),
  );
  add(
    "files touched",
    "## Files touched (latest first)",
    data.filesTouched.map((f) => `- ${oneLine(f)}`).join("\n"),
  );
  const posture = [
    data.branch && `branch ${data.branch}`,
    data.mode && `mode ${data.mode}`,
    data.permissionMode && `permission mode ${data.permissionMode}`,
    data.cwd && `folder ${data.cwd}`,
  ].filter(Boolean).join(" · ");
  add("branch and modes", "## Branch and modes", oneLine(posture));
  add(
    "incomplete warning",
    "## Warning: the last turn may be incomplete",
    data.incomplete.map((reason) => `- ${reason}`).join("\n"),
  );
  return sections;
}

function render(section: Section): string {
  return `\n\n${section.heading}\n${section.body}`;
}

function noteOf(budget: number, clipped: string[], omitted: string[]): string {
  const parts = [];
  if (clipped.length > 0) parts.push(`clipped ${clipped.join(", ")}`);
  if (omitted.length > 0) parts.push(`omitted ${omitted.join(", ")}`);
  return `[Digest cut to fit the ${budget}-character budget: ${parts.join("; ")}.]`;
}

/** `text` cut to `limit` characters, the cut marked with how much is missing. */
function cap(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}…[+${text.length - limit} chars]`;
}

/** `text` cut to at most `space` characters, ending in an ellipsis. */
function clip(text: string, space: number): string {
  return text.length <= space ? text : `${text.slice(0, space - 1)}…`;
}
