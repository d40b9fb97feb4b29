/**
 * An export as one self-contained HTML page: styles inline, no script, no
 * reference to anything outside the file (a Content-Security-Policy says so
 * to the browser too), light and dark, readable on a phone and printable.
 * Every piece of transcript text is HTML-escaped before it is placed, so a
 * `<script>` or an `<img onerror>` in a prompt or a tool's output is shown as
 * text; Claude's Markdown is rendered from the escaped text (code blocks,
 * inline code, bold, headings, lists), never from the raw one.
 *
 * @module
 */

import type { ExportImage } from "../../transcript/export_read.ts";
import { footerNotes, headerRows } from "./markdown_view.ts";
import { embeddable, type ExportHeader, type ExportView, shownTime } from "./render.ts";
import type { ToolCallView, ToolResultView } from "./tool_view.ts";
import { PAGE_STYLE } from "./html_style.ts";

/** An HTML view writing to `write`. */
export function htmlView(write: (text: string) => void): ExportView {
  let open = false;
  const closeTurn = () => {
    if (open) write("</section>\n");
    open = false;
  };
  return {
    begin(header: ExportHeader) {
      write(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
          '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
          // Nothing outside the page, no script at all: an injection that got through would not run.
          '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; ' +
          "style-src 'unsafe-inline'; img-src data:\">\n" +
          '<meta name="color-scheme" content="light dark">\n' +
          `<title>${escapeHtml(header.title)}</title>\n<style>${PAGE_STYLE}</style>\n</head>\n` +
          `<body>\n<header>\n<h1>${escapeHtml(header.title)}</h1>\n<dl>\n`,
      );
      for (const [name, value] of headerRows(header)) {
        write(`<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>\n`);
      }
      write("</dl>\n</header>\n<main>\n");
    },
    heading(who, timestamp) {
      closeTurn();
      const when = shownTime(timestamp);
      write(
        `<section class="turn ${who}">\n<h2>${who === "user" ? "User" : "Claude"}` +
          (when === undefined ? "" : ` <time>${escapeHtml(when)}</time>`) + "</h2>\n",
      );
      open = true;
    },
    text(who, text) {
      if (who === "user") write(`<div class="prompt">${escapeHtml(text.trimEnd())}</div>\n`);
      else write(`<div class="markdown">${markdownHtml(text)}</div>\n`);
    },
    collapsed(label, text) {
      write(
        `<details class="note"><summary>${escapeHtml(label)}</summary>` +
          `<pre>${escapeHtml(text)}</pre></details>\n`,
      );
    },
    toolCall(view: ToolCallView) {
      write(
        `<div class="tool"><div class="tool-name">${escapeHtml(view.title)}` +
          (view.detail ? ` <code>${escapeHtml(view.detail)}</code>` : "") + "</div>\n",
      );
      if (view.code) write(`<pre><code>${escapeHtml(view.code.text)}</code></pre>\n`);
      for (const hunk of view.diff ?? []) {
        write('<pre class="diff">');
        for (const line of hunk) {
          write(
            `<span class="${line.sign === "-" ? "del" : "add"}">${line.sign}` +
              `${escapeHtml(line.text)}\n</span>`,
          );
        }
        write("</pre>\n");
      }
      write("</div>\n");
    },
    toolResult(view: ToolResultView) {
      const error = view.title.startsWith("Error") ? " error" : "";
      if (view.collapsed !== undefined) {
        write(
          `<details class="result${error}"><summary>${escapeHtml(view.title)} ` +
            `(${escapeHtml(view.collapsed)})</summary><pre>${
              escapeHtml(view.text)
            }</pre></details>\n`,
        );
      } else {
        write(
          `<div class="result${error}"><div class="result-name">${escapeHtml(view.title)}</div>` +
            `<pre>${view.text === "" ? "(empty)" : escapeHtml(view.text)}</pre></div>\n`,
        );
      }
    },
    image(image: ExportImage) {
      write(
        embeddable(image)
          ? `<img class="shot" alt="image" src="data:${image.mediaType};base64,${image.data}">\n`
          : image.url !== undefined
          // Named, not linked or loaded: the page fetches nothing.
          ? `<p class="muted">(an image at ${escapeHtml(image.url)}, not loaded)</p>\n`
          : `<p class="muted">(an image of type ${escapeHtml(image.mediaType)}, not shown)</p>\n`,
      );
    },
    omitted(what) {
      write(`<p class="muted">(${escapeHtml(what)}, not shown)</p>\n`);
    },
    event(label, text, timestamp) {
      closeTurn();
      const when = shownTime(timestamp);
      write(
        `<aside class="event"><strong>${escapeHtml(label)}</strong>` +
          (when === undefined ? "" : ` <time>${escapeHtml(when)}</time>`) +
          (text === "" ? "" : `<pre>${escapeHtml(text)}</pre>`) + "</aside>\n",
      );
    },
    subagentBegin(label) {
      closeTurn();
      write(
        `<details class="subagent" open><summary>Subagent: ${escapeHtml(label)}</summary>\n`,
      );
    },
    subagentEnd() {
      closeTurn();
      write("</details>\n");
    },
    end(footer) {
      closeTurn();
      write("</main>\n<footer>\n");
      for (const note of footerNotes(footer)) write(`<p>${escapeHtml(note)}</p>\n`);
      write("</footer>\n</body>\n</html>\n");
    },
  };
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` safe anywhere in an HTML element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/**
 * Claude's Markdown as HTML, from escaped text only: fenced code blocks, then
 * per line headings and list items, inline code and bold. Links stay text
 * (the page refers to nothing outside itself).
 */
export function markdownHtml(text: string): string {
  const parts = escapeHtml(text.trimEnd()).split(/^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^\1[ \t]*$/m);
  let html = "";
  // split with two groups: [text, fence, code, text, fence, code, ..., text]
  for (let i = 0; i < parts.length; i += 3) {
    html += blocksHtml(parts[i]);
    if (i + 2 < parts.length) html += `<pre><code>${parts[i + 2].replace(/\n$/, "")}</code></pre>`;
  }
  return html;
}

function blocksHtml(text: string): string {
  const trimmed = text.replace(/^\n+|\n+$/g, "");
  if (trimmed === "") return "";
  return trimmed.split(/\n{2,}/).map(paragraphHtml).join("");
}

/**
 * One paragraph's blocks, line by line: Claude often writes a heading, a
 * sentence and a list with no blank line between them, and each is shown as
 * what it is. An indented line after a list item continues it.
 */
function paragraphHtml(paragraph: string): string {
  let html = "";
  let prose: string[] = [];
  let list: { ordered: boolean; items: string[] } | undefined;
  const endProse = () => {
    if (prose.length > 0) html += `<p>${inlineHtml(prose.join("\n"))}</p>`;
    prose = [];
  };
  const endList = () => {
    if (list === undefined) return;
    const items = list.items.map((item) => `<li>${inlineHtml(item)}</li>`).join("");
    html += list.ordered ? `<ol>${items}</ol>` : `<ul>${items}</ul>`;
    list = undefined;
  };
  for (const line of paragraph.split("\n")) {
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    const item = /^(?:[-*]|(\d+)\.) (.*)$/.exec(line);
    if (heading !== null) {
      endProse();
      endList();
      const level = Math.min(6, heading[1].length + 2);
      html += `<h${level}>${inlineHtml(heading[2])}</h${level}>`;
    } else if (item !== null) {
      endProse();
      const ordered = item[1] !== undefined;
      if (list !== undefined && list.ordered !== ordered) endList();
      list ??= { ordered, items: [] };
      list.items.push(item[2]);
    } else if (list !== undefined && /^\s+\S/.test(line)) {
      list.items[list.items.length - 1] += `\n${line.trim()}`;
    } else {
      endList();
      prose.push(line);
    }
  }
  endProse();
  endList();
  return html;
}

function inlineHtml(text: string): string {
  return text.split(/(`[^`\n]+`)/).map((piece, i) =>
    i % 2 === 1
      ? `<code>${piece.slice(1, -1)}</code>`
      : piece.replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>")
  ).join("");
}
