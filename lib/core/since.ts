/**
 * `find --since`'s value: a span back from now (`7d`, `24h`, `30m`, `2w`)
 * or a date (`2026-11-01`, with a time and a zone when given). The command
 * table parses the text; the flow turns it into a time with its own clock.
 *
 * @module
 */

/** A span back from now, in milliseconds, or a moment. */
export type Since = { ago: number } | { at: Date };

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** The longest span a date can hold (ECMAScript's time range). */
const MAX_SPAN_MS = 8.64e15;

/**
 * A date, with a time and a zone when given: 2026-11-30, 2026-11-30T14:05,
 * 2026-11-30T14:05:09Z. Nothing looser: JavaScript's own date guessing reads
 * '7' as July 2001 and rolls February 30 over into March.
 */
const SINCE_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** `text` as a {@linkcode Since}, or null when it is none of the forms. */
export function parseSince(text: string): Since | null {
  const typed = text.trim();
  const relative = /^(\d+)\s*([mhdw])$/i.exec(typed);
  if (relative) {
    const ago = Number(relative[1]) * UNIT_MS[relative[2].toLowerCase()];
    // A span too long for a date (99999999999d) is no date either.
    return Number.isFinite(ago) && ago <= MAX_SPAN_MS ? { ago } : null;
  }
  const at = calendarDate(typed);
  return at === null || Number.isNaN(at.getTime()) ? null : { at };
}

/** The moment `since` names, as an ISO time, `now` being now. */
export function sinceTime(since: Since, now: Date): string {
  return ("ago" in since ? new Date(now.getTime() - since.ago) : since.at).toISOString();
}

/** A {@linkcode SINCE_DATE} as a Date, local time unless a zone is given; null for no such day or time. */
function calendarDate(typed: string): Date | null {
  const parts = SINCE_DATE.exec(typed);
  if (parts === null) return null;
  const [, year, month, day, hour = "0", minute = "0", second = "0"] = parts;
  const asLocal = new Date(Number(year), Number(month) - 1, Number(day));
  const realDay = asLocal.getMonth() === Number(month) - 1 && asLocal.getDate() === Number(day);
  if (!realDay || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  return parts[4] === undefined ? asLocal : new Date(typed);
}
