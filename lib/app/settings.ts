/**
 * Transcript protection (spec 4 step 4): raise Claude Code's
 * `cleanupPeriodDays` so it stops deleting transcripts after 30 days.
 *
 * @module
 */

import { applyEdits, type Edit, modify, parseTree } from "jsonc-parser";
import type { Paths } from "../core/paths.ts";
import { writeFileAtomic } from "../store/atomic_write.ts";
import { backupSettings } from "../store/backups.ts";

/** The value claudecm sets: about 274 years. 0 would disable persistence. */
export const PROTECTED_CLEANUP_DAYS = 100_000;

/** Values below this are raised. */
export const MIN_CLEANUP_DAYS = 1_000;

/**
 * Raise `cleanupPeriodDays` in an existing settings.json when it is unset or
 * below 1000, after a backup. The edit touches that one key, so the rest of
 * the file keeps its bytes. A missing file, or one Claude Code itself would
 * skip (invalid JSON, comments), is left alone. Never throws; returns whether
 * the file was changed.
 */
export function ensureCleanupPeriod(paths: Paths, now: Date): boolean {
  try {
    const text = Deno.readTextFileSync(paths.settingsFile);
    const settings = JSON.parse(text);
    if (typeof settings !== "object" || settings === null || Array.isArray(settings)) return false;
    const days = settings.cleanupPeriodDays;
    if (typeof days === "number" && days >= MIN_CLEANUP_DAYS) return false;
    backupSettings(paths, now);
    writeFileAtomic(paths.settingsFile, applyEdits(text, cleanupPeriodEdits(text, days)));
    return true;
  } catch {
    return false;
  }
}

/**
 * The edit that sets the key. An existing value is replaced where it stands;
 * a new key goes after the last property, in that property's indentation.
 * jsonc-parser's own formatter would re-indent the neighbouring property, so
 * the insertion text is built here.
 */
function cleanupPeriodEdits(text: string, current: unknown): Edit[] {
  if (current !== undefined) {
    return modify(text, ["cleanupPeriodDays"], PROTECTED_CLEANUP_DAYS, {});
  }
  const root = parseTree(text);
  if (root === undefined) return [];
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const property = `"cleanupPeriodDays": ${PROTECTED_CLEANUP_DAYS}`;
  const last = root.children?.at(-1);
  if (last === undefined) {
    return [{ offset: root.offset + 1, length: 0, content: `${eol}  ${property}${eol}` }];
  }
  const lineStart = text.lastIndexOf("\n", last.offset) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, last.offset))![0];
  const separator = lineStart > root.offset ? `${eol}${indent}` : " ";
  return [{ offset: last.offset + last.length, length: 0, content: `,${separator}${property}` }];
}
