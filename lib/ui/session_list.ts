/**
 * The session table (spec section 9): number, name, size, tokens, date and
 * path, in the old scripts' columns under one header line, and the legend of
 * the marks it shows. The folder column is aligned with spaces, not the old
 * scripts' tab (issue 31), and a folder that is gone is marked after it.
 *
 * @module
 */

import { BROKEN_LINK, type SessionInfo } from "../core/session_info.ts";
import type { Session } from "../core/registry.ts";
import { displayWidth, padEndToWidth, truncateToWidth } from "./text_width.ts";
import { visibleText } from "../core/safe_text.ts";

/** A row to render: the session and what its info lookup found. */
export interface SessionRow {
  session: Session;
  /** Its number in the list (`claudecm resume N`), in a filtered view too. */
  number: number;
  info: SessionInfo;
  /** A claude is running on it now (DESIGN.md 5.8): marked after its name. */
  live?: boolean;
}

/** The mark after the name of a session whose claude is running now. */
export const LIVE_MARK = "[live]";

/** What an empty list says: nothing is saved yet, and how a first session starts. */
export const NO_SESSIONS =
  "No saved sessions yet: start one with claudecm new, in a project's folder.";

/** The mark after the folder of a session whose folder is gone, with the command that helps. */
export const FOLDER_GONE_MARK = "(folder gone: claudecm move)";

/** A rendered line and whether it is the highlighted (yellow) one. */
export interface RenderedLine {
  text: string;
  highlighted: boolean;
}

/** Options for {@linkcode renderSessionRows}. */
export interface RenderOptions {
  /** The list number of the row to mark `*** ... [Selected] ***`; 0 (the default) for none. */
  highlight?: number;
  /**
   * The terminal's width: names are cut (with `…`) so a row and its path fit
   * in it. Unset (piped output) keeps names whole.
   */
  maxWidth?: number;
}

/** A cut name keeps at least this many columns, however long the paths are. */
const MIN_NAME_WIDTH = 20;
/** The columns after the name: size (9), tokens (10), the spaces between them. */
const COLUMNS_AFTER_NAME = 1 + 9 + 1 + 10 + 1;
/** The spaces between the date and the folder. */
const FOLDER_GAP = "  ";
/** The date column's header. */
const DATE_HEADER = "Last used";

/** The header line, the table's lines and the legend of every mark they show (none when none). */
export interface SessionTable {
  /** One line naming the columns, aligned with the rows (never highlighted). */
  header: string;
  lines: RenderedLine[];
  legend: string[];
}

/** Render rows as `<num>. <desc> <size> <tokens> <date>  <path>`, with their header and legend. */
export function renderSessionTable(
  rows: SessionRow[],
  options: RenderOptions = {},
): SessionTable {
  const highlight = options.highlight ?? 0;
  const numberWidth = String(Math.max(0, ...rows.map((row) => row.number))).length + 1;
  const marks = rows.map((row) => row.live ? ` ${LIVE_MARK}` : "");
  // Measured and cut as the terminal will show them: a control character is two columns (^G).
  const descs = rows.map((row) => visibleText(row.session.desc));
  const dirs = rows.map((row) =>
    visibleText(row.session.dir) + (row.info.folderGone ? ` ${FOLDER_GONE_MARK}` : "")
  );
  const dateWidth = Math.max(
    DATE_HEADER.length,
    ...rows.map((row) => displayWidth(row.info.dateText)),
  );
  const cap = nameCap({ numberWidth, dateWidth, maxWidth: options.maxWidth, dirs });
  const shown = descs.map((desc, index) => truncateToWidth(desc, cap - displayWidth(marks[index])));
  const names = shown.map((name, index) => name + marks[index]);
  // By terminal columns, not UTF-16 units: CJK names and emoji take two columns each.
  const descWidth = Math.max(10, ...names.map((name) => displayWidth(name)));
  const lines = rows.map(({ info, number: listNumber }, index) => {
    const number = `${listNumber}.`.padEnd(numberWidth + 1);
    const text = `${number}${padEndToWidth(names[index], descWidth)} ${info.size.padStart(9)} ` +
      `${info.tokensText.padStart(10)} ${padEndToWidth(info.dateText, dateWidth)}${FOLDER_GAP}` +
      dirs[index];
    const highlighted = highlight === listNumber;
    return { text: highlighted ? `*** ${text} [Selected] ***` : `  ${text}`, highlighted };
  });
  const header = `  ${"#".padEnd(numberWidth + 1)}${"Name".padEnd(descWidth)} ` +
    `${"Size".padStart(9)} ${"Tokens".padStart(10)} ${DATE_HEADER.padEnd(dateWidth)}${FOLDER_GAP}` +
    "Folder";
  const cut = shown.some((name, index) => name !== descs[index]);
  return { header, lines, legend: legendOf(rows, { cut }) };
}

/** The widest a name (with its marks) may be so rows fit in `maxWidth`; Infinity when unset. */
function nameCap(
  { numberWidth, dateWidth, maxWidth, dirs }: {
    numberWidth: number;
    dateWidth: number;
    maxWidth?: number;
    dirs: string[];
  },
): number {
  if (maxWidth === undefined || maxWidth <= 0) return Infinity;
  const widest = (texts: string[]) => Math.max(0, ...texts.map((text) => displayWidth(text)));
  const fixed = 2 + numberWidth + 1 + COLUMNS_AFTER_NAME + dateWidth + FOLDER_GAP.length +
    widest(dirs);
  // One column spare: a line that fills the last column wraps on some terminals.
  return Math.max(MIN_NAME_WIDTH, maxWidth - 1 - fixed);
}

/** One line per mark the rows show, saying what it means. */
function legendOf(rows: SessionRow[], { cut }: { cut: boolean }): string[] {
  const legend: string[] = [];
  if (rows.some((row) => row.live)) legend.push(`${LIVE_MARK} = open in a claude window now`);
  if (cut) legend.push("… = name cut to the terminal's width (piped output shows it whole)");
  if (rows.some((row) => row.info.status === "new")) {
    legend.push("(new) = open in a claude window that has not saved its first message yet");
  }
  if (rows.some((row) => row.info.status === "missing")) {
    legend.push("(missing) = its transcript is nowhere under the projects folder");
  }
  if (rows.some((row) => row.info.folderGone)) {
    legend.push(
      `${FOLDER_GONE_MARK} = its folder no longer exists: if it moved, claudecm move OLD NEW`,
    );
  }
  if (rows.some((row) => row.info.status === "unreadable" && row.info.size !== BROKEN_LINK)) {
    legend.push("(no access) = its transcript could not be read (claudecm doctor says why)");
  }
  if (rows.some((row) => row.info.size === BROKEN_LINK)) {
    legend.push(
      `${BROKEN_LINK} = its transcript is a symbolic link to nothing: resuming it offers the vault's copy`,
    );
  }
  if (rows.some((row) => row.info.dateIsFallback)) {
    legend.push("date* = no transcript: the last change of its memory or subagent files");
  }
  if (rows.some((row) => row.info.tokensText === "--" || row.info.dateText === "--")) {
    legend.push("-- = not measured yet (tokens) or not known (date)");
  }
  return legend;
}
