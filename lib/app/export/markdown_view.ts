/**
 * An export as Markdown: headings for the speakers, Claude's text as it
 * wrote it, code blocks whose fence is longer than any backtick run inside
 * them (so transcript text cannot end them early), `<details>` for what is
 * collapsed (GitHub and most viewers fold it), images as data URLs.
 * Transcript text outside code is inert (markdown_text.ts): HTML in a
 * prompt, in Claude's text or in a name shows as typed and never renders.
 *
 * @module
 */

import { formatTokens } from "../../core/format.ts";
import type { ExportImage } from "../../transcript/export_read.ts";
import {
  embeddable,
  type ExportFooter,
  type ExportHeader,
  type ExportView,
  shownTime,
} from "./render.ts";
import { htmlText, inertMarkdown, keptLineBreaks } from "./markdown_text.ts";
import type { ToolCallView, ToolResultView } from "./tool_view.ts";

/** A Markdown view writing to `write`. */
export function markdownView(write: (text: string) => void): ExportView {
  let depth = 0;
  const hashes = (level: number) => "#".repeat(Math.min(6, level + depth));
  return {
    begin(header: ExportHeader) {
      write(`# ${inline(header.title)}\n\n`);
      for (const [name, value] of headerRows(header)) write(`- **${name}:** ${inline(value)}\n`);
      write("\n---\n\n");
    },
    heading(who, timestamp) {
      const name = who === "user" ? "User" : "Claude";
      const when = shownTime(timestamp);
      write(`${hashes(2)} ${name}${when === undefined ? "" : ` · ${when}`}\n\n`);
    },
    text(who, text) {
      // A prompt is shown as typed: as a quote, so its own Markdown stays the user's words.
      if (who === "user") write(`${quoted(inertMarkdown(text))}\n\n`);
      else write(`${inertMarkdown(text.trimEnd())}\n\n`);
    },
    collapsed(label, text) {
      write(
        `<details><summary>${htmlText(oneLine(label))}</summary>\n\n${
          fenced(text, "")
        }\n</details>\n\n`,
      );
    },
    toolCall(view: ToolCallView) {
      write(
        `**${inline(view.title)}**${view.detail ? ` ${inlineCode(oneLine(view.detail))}` : ""}\n\n`,
      );
      if (view.code) write(`${fenced(view.code.text, view.code.language)}\n`);
      for (const hunk of view.diff ?? []) {
        write(`${fenced(hunk.map((line) => `${line.sign}${line.text}`).join("\n"), "diff")}\n`);
      }
    },
    toolResult(view: ToolResultView) {
      if (view.collapsed !== undefined) {
        write(
          `<details><summary>${
            htmlText(oneLine(`${view.title} (${view.collapsed})`))
          }</summary>\n\n` +
            `${fenced(view.text, "")}\n</details>\n\n`,
        );
      } else if (view.text === "") write(`*${inline(view.title)}: (empty)*\n\n`);
      else write(`*${inline(view.title)}:*\n\n${fenced(view.text, "")}\n`);
    },
    image(image: ExportImage) {
      write(
        embeddable(image)
          ? `![image](data:${image.mediaType};base64,${image.data})\n\n`
          : image.url !== undefined
          // Named, not linked: an export never makes its reader's viewer fetch anything.
          ? `*(an image at ${inline(image.url)}, not loaded)*\n\n`
          : `*(an image of type ${inline(image.mediaType)}, not shown)*\n\n`,
      );
    },
    omitted(what) {
      write(`*(${inline(what)}, not shown)*\n\n`);
    },
    event(label, text, timestamp) {
      const when = shownTime(timestamp);
      write(`> **${inline(label)}**${when === undefined ? "" : ` · ${when}`}`);
      write(text === "" ? "\n\n" : `\n>\n${quoted(inertMarkdown(text))}\n\n`);
    },
    subagentBegin(label) {
      write(`${hashes(3)} Subagent: ${inline(label)}\n\n`);
      depth++;
    },
    subagentEnd() {
      depth--;
      write(`${hashes(3)} End of subagent\n\n`);
    },
    end(footer: ExportFooter) {
      const notes = footerNotes(footer);
      if (notes.length > 0) {
        write(`---\n\n${notes.map((note) => `*${inline(note)}*`).join("\n\n")}\n`);
      }
    },
  };
}

/** The header's rows, the same in both views. */
export function headerRows(header: ExportHeader): Array<[string, string]> {
  const rows: Array<[string, string]> = [["Session", header.sessionId]];
  if (header.folder !== undefined) rows.push(["Folder", header.folder]);
  const first = shownTime(header.firstTimestamp);
  const last = shownTime(header.lastTimestamp);
  if (first !== undefined) rows.push(["Started", first]);
  if (last !== undefined) rows.push(["Last activity", last]);
  const tokens: string[] = [];
  if (header.contextTokens !== undefined) {
    tokens.push(`${formatTokens(header.contextTokens)} in context at the end`);
  }
  if (header.listedTokens) tokens.push(`${formatTokens(header.listedTokens)} last measured`);
  if (tokens.length > 0) rows.push(["Tokens", tokens.join(", ")]);
  if (header.model !== undefined) rows.push(["Model", header.model]);
  rows.push(["Read from", header.source]);
  return rows;
}

/** The footer's sentences, the same in both views. */
export function footerNotes(footer: ExportFooter): string[] {
  const notes: string[] = [];
  if (footer.skipped !== null) notes.push(`Not exported: ${footer.skipped}.`);
  if (footer.subagentSkipped > 0) {
    notes.push(
      `Not exported: ${footer.subagentSkipped} unreadable ` +
        `${footer.subagentSkipped === 1 ? "line" : "lines"} of subagent transcripts.`,
    );
  }
  for (const id of footer.unreadable) {
    notes.push(`Subagent ${id}: its transcript could not be read.`);
  }
  if (footer.redacted !== undefined) {
    notes.push(
      `${footer.redacted} secret-shaped ${footer.redacted === 1 ? "string" : "strings"} ` +
        "replaced with [redacted].",
    );
  }
  return notes;
}

/** `text` in a code block whose fence no backtick run in it can close. */
function fenced(text: string, language: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}\n`;
}

function inlineCode(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** Text someone typed (a prompt, a command's output) as a quote, line by line as typed. */
function quoted(text: string): string {
  return keptLineBreaks(text.trimEnd()).split("\n")
    .map((line) => line === "" ? ">" : `> ${line}`).join("\n");
}

/** One line of transcript text for a heading, a list item or emphasis: inert. */
function inline(text: string): string {
  return inertMarkdown(oneLine(text));
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ");
}
