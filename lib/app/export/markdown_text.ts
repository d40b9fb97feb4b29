/**
 * Transcript text made inert for a Markdown viewer: every `<` that a viewer
 * could read as the start of HTML (a tag, a comment, an HTML block, an
 * autolink) is written `&lt;`, which every viewer shows as `<`. A prompt with
 * `<script>` or an `<img onerror>` is then shown as typed, never rendered
 * (GitHub strips both, but VS Code's preview, Obsidian and most static-site
 * tools render raw HTML). Code is left alone, where `&lt;` would show
 * literally and where no viewer reads HTML: a fenced block whose fence starts
 * the line, and a code span that opens and closes on one line.
 *
 * Only what is certainly code is spared, so a viewer can never see markup
 * where this saw code: an indented fence (one in a list item) is not spared,
 * and after a backtick run that finds no closer on its line (a viewer may
 * close it on a later line, shifting every span after it) the rest of the
 * paragraph is escaped whole. Both cost only a visible `&lt;` in that code.
 *
 * @module
 */

/** `text` (Markdown, shown at the top level of the document) with no `<` a viewer reads as HTML. */
export function inertMarkdown(text: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  // A backtick run of this paragraph found no closer on its line: escape the rest of it whole.
  let unsure = false;
  for (const line of text.split("\n")) {
    if (fence !== undefined) {
      out.push(line);
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    const opener = /^(`{3,}|~{3,})(.*)$/.exec(line);
    if (opener !== null && !(opener[1][0] === "`" && opener[2].includes("`"))) {
      fence = opener[1];
      unsure = false;
      out.push(line);
      continue;
    }
    if (line.trim() === "") unsure = false;
    if (unsure) {
      out.push(escapeAngles(line));
      continue;
    }
    const shown = escapeOutsideSpans(line);
    unsure = shown.open;
    out.push(shown.text);
  }
  return out.join("\n");
}

/**
 * `text` with its line breaks kept in a viewer: a line followed by another
 * ends in two spaces (a hard break), outside fenced code, so a prompt's
 * pasted log or list shows line by line as typed, not run into one
 * paragraph.
 */
export function keptLineBreaks(text: string): string {
  const lines = text.split("\n");
  let fence: string | undefined;
  return lines.map((line, i) => {
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
      return line;
    }
    const opener = /^(`{3,}|~{3,})(.*)$/.exec(line);
    if (opener !== null && !(opener[1][0] === "`" && opener[2].includes("`"))) {
      fence = opener[1];
      return line;
    }
    const next = lines[i + 1];
    return line.trim() !== "" && next !== undefined && next.trim() !== "" ? `${line}  ` : line;
  }).join("\n");
}

/** One line of text for inside an HTML element (`<summary>`): `&` and `<` as entities. */
export function htmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

/** Whether `line` closes a fence opened with `fence` (the same character, at least as many). */
function closesFence(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t\r]*$/.exec(line);
  return match !== null && match[1][0] === fence[0] && match[1].length >= fence.length;
}

/** Every `<` not already escaped with a backslash, as `&lt;`. */
function escapeAngles(text: string): string {
  return text.replace(
    /(\\*)</g,
    (all, slashes: string) => slashes.length % 2 === 1 ? all : `${slashes}&lt;`,
  );
}

/**
 * `line` with `<` escaped outside its code spans; `open` when a backtick run
 * found no closer on the line (the rest of the line is then escaped too).
 */
function escapeOutsideSpans(line: string): { text: string; open: boolean } {
  let text = "";
  let from = 0;
  for (let at = line.indexOf("`"); at !== -1; at = line.indexOf("`", from)) {
    let end = at;
    while (line[end] === "`") end++;
    let slashes = 0;
    while (line[at - 1 - slashes] === "\\") slashes++;
    // An escaped backtick is a literal one; the rest of its run may still open a span.
    const start = slashes % 2 === 1 ? at + 1 : at;
    if (start === end) {
      text += escapeAngles(line.slice(from, end));
      from = end;
      continue;
    }
    const closer = closingRun(line, end, end - start);
    if (closer === -1) return { text: text + escapeAngles(line.slice(from)), open: true };
    text += escapeAngles(line.slice(from, start)) + line.slice(start, closer);
    from = closer;
  }
  return { text: text + escapeAngles(line.slice(from)), open: false };
}

/** The end of the first run of exactly `length` backticks at or after `from`, or -1. */
function closingRun(line: string, from: number, length: number): number {
  for (let at = line.indexOf("`", from); at !== -1;) {
    let end = at;
    while (line[end] === "`") end++;
    if (end - at === length) return end;
    at = line.indexOf("`", end);
  }
  return -1;
}
