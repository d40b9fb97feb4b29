/**
 * The session table (spec section 9): number, name, size, tokens, date and
 * path, in the old scripts' columns.
 *
 * @module
 */

import type { SessionInfo } from "../core/session_info.ts";
import type { Session } from "../core/registry.ts";
import { displayWidth, padEndToWidth } from "./text_width.ts";

/** A row to render: the session and what its info lookup found. */
export interface SessionRow {
  session: Session;
  info: SessionInfo;
  /** A claude is running on it now (DESIGN.md 5.8): marked after its name. */
  live?: boolean;
}

/** The mark after the name of a session whose claude is running now. */
export const LIVE_MARK = "[live]";

/** A rendered line and whether it is the highlighted (yellow) one. */
export interface RenderedLine {
  text: string;
  highlighted: boolean;
}

/**
 * Render rows as `<num>. <desc> <size> <tokens> <date>\t<path>`; `highlight`
 * is the 1-based row to mark `*** ... [Selected] ***`, 0 for none.
 */
export function renderSessionRows(rows: SessionRow[], highlight = 0): RenderedLine[] {
  const numberWidth = String(rows.length).length + 1;
  const names = rows.map((row) => row.live ? `${row.session.desc} ${LIVE_MARK}` : row.session.desc);
  // By terminal columns, not UTF-16 units: CJK names and emoji take two columns each.
  const descWidth = Math.max(10, ...names.map((name) => displayWidth(name)));
  return rows.map(({ session, info }, index) => {
    const number = `${index + 1}.`.padEnd(numberWidth + 1);
    const text = `${number}${padEndToWidth(names[index], descWidth)} ${info.size.padStart(9)} ` +
      `${info.tokensText.padStart(10)} ${info.dateText}\t${session.dir}`;
    const highlighted = highlight === index + 1;
    return { text: highlighted ? `*** ${text} [Selected] ***` : `  ${text}`, highlighted };
  });
}
