/**
 * Display formats (spec section 7) and the timestamp used in backup and
 * snapshot names.
 *
 * @module
 */

import { cleanName } from "./safe_text.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const KB = 1024;
const MB = 1024 * 1024;

/** Tokens for display: `--` when never measured, else `1.2M tok`, `155K tok`, `950 tok`. */
export function formatTokens(tokens: string | number | undefined | null): string {
  if (tokens === undefined || tokens === null || String(tokens).trim() === "") return "--";
  const count = Number(tokens);
  if (!Number.isFinite(count)) return "--";
  const thousands = Math.round(count / 1_000);
  // 999,999 rounds to 1000K: that is the next unit's 1.0M.
  if (count >= 1_000_000 || thousands >= 1_000) return `${(count / 1_000_000).toFixed(1)}M tok`;
  if (count >= 1_000) return `${thousands}K tok`;
  return `${count} tok`;
}

/** Bytes for display: `1.5 MB`, `512 KB`, `300 B`. */
export function formatSize(bytes: number): string {
  const kilobytes = Math.round(bytes / KB);
  // Just under 1 MB rounds to 1024 KB: that is the next unit's 1.0 MB.
  if (bytes >= MB || kilobytes >= 1024) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= KB) return `${kilobytes} KB`;
  return `${bytes} B`;
}

/** A date for display: `Mar 13` this year (or later), `Mar 13, 2025` before it. */
export function formatDateShort(date: Date, now: Date): string {
  const day = `${MONTHS[date.getMonth()]} ${date.getDate()}`;
  return date.getFullYear() < now.getFullYear() ? `${day}, ${date.getFullYear()}` : day;
}

/** Local time to the minute as `yyyy-MM-dd HH:mm`, for tables of files. */
export function formatMinute(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Local time as `yyyyMMdd-HHmmss`, for backup and snapshot names. */
export function formatStamp(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/**
 * A folder's default session name: its leaf, dashes to spaces, title-cased
 * (spec 11.4). `|` becomes a space and line breaks collapse like other
 * whitespace, so the name obeys the rule a typed name does.
 */
export function folderDefaultName(leaf: string): string {
  // A folder's name may hold anything a file name can, escape sequences included.
  return cleanName(leaf.replace(/[-|]+/g, " ")).split(/\s+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}
