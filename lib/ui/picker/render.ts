/**
 * The picker's screen as a pure function of its state, its rows and the
 * terminal's size: one string per screen line, each exactly `columns - 1`
 * columns wide (the last column stays empty: a line that fills it wraps on
 * some terminals), wide characters counted as the terminal draws them. The
 * first line is the query, the last the footer naming the keys; between
 * them the rows, scrolled so the highlight shows, and at 100 columns or more
 * the preview of the highlighted session beside them. Every text that came
 * from a name, a folder or a transcript is shown through the safe-text rules
 * (DESIGN.md 5.17): the only escape sequences in a line are the renderer's
 * own colours, and none at all without colour (NO_COLOR).
 *
 * @module
 */

import type { FilteredRow } from "./filter.ts";
import type { PickerAction, PickerState } from "./state.ts";
import { cutTo, padTo, screenText, truncateStart, widthOf, wrapToWidth } from "./screen_text.ts";
import { NO_SESSIONS } from "../session_list.ts";

/** The terminal width from which the preview shows beside the list. */
export const PREVIEW_MIN_COLUMNS = 100;

/** Opens a highlighted hit in a snippet ({@linkcode FilteredRow.snippet}). */
export const HIT_OPEN = "\u0001";
/** Closes a highlighted hit. */
export const HIT_CLOSE = "\u0002";

/** What the preview shows of the highlighted session; loaded by the caller. */
export interface PreviewData {
  /** Label and value lines (folder, id, last active, size and tokens, vault). */
  facts: Array<{ label: string; value: string }>;
  /** Its last few user prompts, newest last. */
  prompts: string[];
}

/** What the renderer needs besides the state. */
export interface RenderInput {
  state: PickerState;
  rows: readonly FilteredRow[];
  /** Sessions in the list, filtered or not. */
  total: number;
  columns: number;
  lines: number;
  colour: boolean;
  actions: readonly PickerAction[];
  /** The highlighted session's preview; undefined while it loads. */
  preview?: PreviewData;
  /** A note after the count (`searching what was said…`). */
  status?: string;
}

/** What the layout depends on: the terminal's size and the footer's actions. */
export interface LayoutInput {
  columns: number;
  lines: number;
  actions: readonly PickerAction[];
}

/** How many rows of sessions fit: the screen less the query line and the footer. */
export function listHeight(input: LayoutInput): number {
  return Math.max(1, input.lines - 1 - footerTexts(input).length);
}

/**
 * The footer: each key and what it does, on one line, or two when one cannot
 * name them all and the screen has room (12 lines or more); what does not
 * fit is cut with `…`.
 */
export function footerTexts(input: LayoutInput): string[] {
  const width = Math.max(1, input.columns - 1);
  const keys = [
    "Enter resume",
    "Esc quit",
    `Tab ${previewBeside(input.columns) ? "preview" : "details"}`,
    ...input.actions.map((action) => `^${action.key.toUpperCase()} ${action.label}`),
    "↑↓ PgUp PgDn move",
  ];
  const most = input.lines >= 12 ? 2 : 1;
  const lines: string[] = [];
  let line = "";
  for (const key of keys) {
    const next = line === "" ? key : `${line}  ${key}`;
    if (widthOf(next) <= width || line === "") {
      line = next;
      continue;
    }
    if (lines.length + 1 === most) {
      // The last line it may take: what follows is cut.
      line = cutTo(`${line}  ${key}`, width);
      break;
    }
    lines.push(line);
    line = key;
  }
  return [...lines, cutTo(line, width)];
}

/** Whether the preview has a pane of its own beside the list at this width. */
export function previewBeside(columns: number): boolean {
  return columns >= PREVIEW_MIN_COLUMNS;
}

type Style = "reverse" | "hit" | "dim" | "bold";
interface Piece {
  text: string;
  style?: Style;
}

const CODES: Record<Style, string> = {
  reverse: "\x1b[7m",
  hit: "\x1b[1;33m",
  dim: "\x1b[2m",
  bold: "\x1b[1m",
};
const RESET = "\x1b[0m";

/** The screen's lines, top to bottom. */
export function renderPicker(input: RenderInput): string[] {
  const width = Math.max(1, input.columns - 1);
  const height = Math.max(1, input.lines);
  const footer = footerTexts(input);
  const body = listHeight(input);
  const { state } = input;
  const beside = previewBeside(input.columns) && state.preview;
  const inPlace = !previewBeside(input.columns) && state.previewOnly;
  let bodyLines: Piece[][];
  if (inPlace) {
    bodyLines = previewLines(input.preview, { width, height: body, snippet: highlighted(input) });
  } else if (beside) {
    const listWidth = Math.floor(width * 0.55);
    const paneWidth = width - listWidth - 1;
    const list = listLines(input, { width: listWidth, height: body });
    // No row, nothing to preview: the pane stays empty rather than "loading".
    const pane = input.rows.length === 0
      ? Array.from({ length: body }, (): Piece[] => [{ text: " ".repeat(paneWidth) }])
      : previewLines(input.preview, {
        width: paneWidth,
        height: body,
        snippet: highlighted(input),
      });
    bodyLines = list.map((line, i) => [...line, { text: "│", style: "dim" }, ...pane[i]]);
  } else {
    bodyLines = listLines(input, { width, height: body });
  }
  const footerPieces = footer.map((text): Piece[] => [{ text, style: "dim" }]);
  const all = [queryLine(input, width), ...bodyLines, ...footerPieces];
  return all.slice(0, height).map((pieces) => paint(fitPieces(pieces, width), input.colour));
}

/** `> query` with a drawn cursor, and the count on the right. */
function queryLine(input: RenderInput, width: number): Piece[] {
  const count = `${input.rows.length}/${input.total}` +
    (input.status === undefined ? "" : `  ${input.status}`);
  const query = screenText(input.state.query);
  const room = Math.max(0, width - 4 - widthOf(count));
  // The end of a long query shows: that is where the typing is.
  const shown = widthOf(query) > room ? truncateStart(query, room) : query;
  const cursor: Piece = input.colour ? { text: " ", style: "reverse" } : { text: "_" };
  const left: Piece[] = [{ text: "> ", style: "bold" }, { text: shown }, cursor];
  const used = 3 + widthOf(shown);
  return [...left, { text: " ".repeat(Math.max(1, width - used - widthOf(count))) }, {
    text: count,
    style: "dim",
  }];
}

/** The rows shown, from the state's first one; the highlighted one marked. */
function listLines(input: RenderInput, size: { width: number; height: number }): Piece[][] {
  const { rows, state } = input;
  const lines: Piece[][] = [];
  if (rows.length === 0) {
    const text = input.total === 0
      ? `  ${NO_SESSIONS}`
      : `  No match. Enter: new project '${screenText(state.query)}'`;
    lines.push([{ text: cutTo(text, size.width) }]);
  }
  const layout = columnsFor(rows, size.width);
  for (let i = state.top; i < rows.length && lines.length < size.height; i++) {
    lines.push(
      rowPieces(rows[i], { layout, highlighted: i === state.cursor, colour: input.colour }),
    );
  }
  while (lines.length < size.height) lines.push([{ text: "" }]);
  return lines.map((line) => fitPieces(line, size.width));
}

/** The widths of a row's columns at `width`; a column that does not fit is left out (0). */
interface Layout {
  number: number;
  name: number;
  size: number;
  age: number;
  folder: number;
}

function columnsFor(rows: readonly FilteredRow[], width: number): Layout {
  let widestNumber = 1;
  let size = 0;
  let age = 0;
  for (const { item } of rows) {
    widestNumber = Math.max(widestNumber, item.number);
    size = Math.max(size, item.size.length);
    age = Math.max(age, item.age.length);
  }
  const number = String(widestNumber).length + 1;
  // The marker (2), the number and a space come first; each column after the name takes a space.
  let rest = width - 2 - number - 1 - (size + 1) - (age + 1);
  if (rest < 12) {
    rest += size + 1;
    size = 0;
  }
  if (rest < 30) return { number, name: Math.max(1, rest), size, age, folder: 0 };
  const name = Math.floor(rest * 0.55);
  return { number, name, size, age, folder: rest - name - 1 };
}

function rowPieces(
  row: FilteredRow,
  { layout, highlighted, colour }: { layout: Layout; highlighted: boolean; colour: boolean },
): Piece[] {
  const { item } = row;
  const live = item.live ? " [live]" : "";
  const name = cutTo(screenText(item.name), Math.max(1, layout.name - live.length)) +
    live;
  const pieces: Piece[] = [
    { text: highlighted ? "> " : "  ", style: "bold" },
    { text: `${item.number}${item.unlisted ? "+" : "."}`.padStart(layout.number) + " " },
    { text: padTo(cutTo(name, layout.name), layout.name) },
  ];
  if (layout.size > 0) pieces.push({ text: " " + item.size.padStart(layout.size) });
  pieces.push({ text: " " + item.age.padEnd(layout.age), style: "dim" });
  if (layout.folder > 0) {
    pieces.push({ text: " " });
    if (row.snippet !== undefined) pieces.push(...snippetPieces(row.snippet, layout.folder));
    else pieces.push({ text: truncateStart(screenText(item.folder), layout.folder), style: "dim" });
  } else if (row.snippet !== undefined) {
    // No room for the words that matched: the name says why it is here only with a mark.
    pieces[1] = { text: `${item.number}.`.padStart(layout.number) + "~" };
  }
  // The highlight is reverse video in colour; without colour the `>` marks it.
  if (highlighted && colour) return pieces.map((piece) => ({ text: piece.text, style: "reverse" }));
  return pieces;
}

/** A snippet's pieces, the hits styled, cut to `width`. */
function snippetPieces(snippet: string, width: number): Piece[] {
  const pieces: Piece[] = [];
  for (const [i, part] of snippet.split(HIT_OPEN).entries()) {
    const [hit, ...after] = i === 0 ? [undefined, part] : part.split(HIT_CLOSE);
    if (hit !== undefined && hit !== "") pieces.push({ text: screenText(hit), style: "hit" });
    const plain = after.join("");
    if (plain !== "") pieces.push({ text: screenText(plain), style: "dim" });
  }
  return fitPieces(pieces, width);
}

/** The highlighted row's snippet, when it matched by what was said. */
function highlighted(input: RenderInput): string | undefined {
  return input.rows[input.state.cursor]?.snippet;
}

/** The preview pane's lines: the matched words, facts, then the last prompts. */
function previewLines(
  preview: PreviewData | undefined,
  size: { width: number; height: number; snippet?: string },
): Piece[][] {
  const lines: Piece[][] = [];
  // What was said that matched, first: a narrow list has no room for it on the row.
  if (size.snippet !== undefined) {
    lines.push([{ text: " Said ", style: "dim" }, ...snippetPieces(size.snippet, size.width - 6)]);
  }
  if (preview === undefined) lines.push([{ text: " …", style: "dim" }]);
  else {
    const labelWidth = Math.max(0, ...preview.facts.map((fact) => widthOf(fact.label)));
    // A long value (a folder) wraps under itself: its end says as much as its start.
    const valueWidth = Math.max(1, size.width - labelWidth - 2);
    for (const fact of preview.facts) {
      wrapToWidth(screenText(fact.value), valueWidth).forEach((part, i) => {
        const label = i === 0 ? fact.label : "";
        lines.push([
          { text: " " + padTo(label, labelWidth) + " ", style: "dim" },
          { text: part },
        ]);
      });
    }
    if (preview.prompts.length > 0) {
      lines.push([{ text: "" }], [{ text: " Last prompts:", style: "dim" }]);
      // The newest are kept when they do not all fit.
      const room = Math.max(0, size.height - lines.length);
      for (const prompt of preview.prompts.slice(-room)) {
        lines.push([{ text: " › ", style: "dim" }, { text: screenText(prompt) }]);
      }
    }
  }
  while (lines.length < size.height) lines.push([{ text: "" }]);
  return lines.slice(0, size.height).map((line) => fitPieces(line, size.width));
}

/** `pieces` cut and padded to exactly `width` columns, still as pieces. */
function fitPieces(pieces: readonly Piece[], width: number): Piece[] {
  const out: Piece[] = [];
  let used = 0;
  for (const piece of pieces) {
    const room = width - used;
    if (room <= 0) break;
    const pieceWidth = widthOf(piece.text);
    const text = pieceWidth <= room ? piece.text : cutTo(piece.text, room);
    // A wide character that would straddle the edge is cut to less than the room: pad below.
    out.push({ text, style: piece.style });
    used += pieceWidth <= room ? pieceWidth : widthOf(text);
  }
  if (used < width) out.push({ text: " ".repeat(width - used) });
  return out;
}

/** The pieces as one line, styled only with colour. */
function paint(pieces: readonly Piece[], colour: boolean): string {
  return pieces.map((piece) =>
    colour && piece.style !== undefined && piece.text !== ""
      ? `${CODES[piece.style]}${piece.text}${RESET}`
      : piece.text
  ).join("");
}
