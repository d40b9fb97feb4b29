/**
 * Transcript protection (spec 4 step 4): raise Claude Code's
 * `cleanupPeriodDays` so it stops deleting transcripts after 30 days.
 *
 * jsonc-parser (the settings editor) is CommonJS and costs a noticeable part
 * of start-up, so it loads only when a file needs a change or is broken, not
 * on the usual run that finds transcripts already protected.
 *
 * @module
 */

import type { Edit, ParseError } from "jsonc-parser";
import { errorMessage } from "../../core/errors.ts";
import { readRegularBytes, readSettingsText, SETTINGS_MAX_BYTES } from "../../core/fs_checks.ts";
import { decodeLossless, encodeLossless } from "../../core/lossless_text.ts";
import type { Paths } from "../../core/paths.ts";
import { realTarget, writeFileAtomic } from "../../store/atomic_write.ts";
import { backupSettings } from "../../store/backups.ts";
import { removeDeadWritersTemps } from "../../store/stale_temps.ts";

/** The value claudecm sets: about 274 years. 0 would disable persistence. */
export const PROTECTED_CLEANUP_DAYS = 100_000;

/** Values below this are raised. */
const MIN_CLEANUP_DAYS = 1_000;

/** settings.json as claudecm (and Claude Code) can use it, or why it cannot. */
export type SettingsRead =
  | { state: "missing" }
  /** Unreadable, invalid JSON, JSON with comments, or not an object: Claude Code skips it too. */
  | { state: "unusable"; reason: string }
  | { state: "parsed"; text: string; cleanupPeriodDays: unknown };

type Jsonc = typeof import("jsonc-parser");

/**
 * Read settings.json strictly, as Claude Code does: a file with comments or
 * trailing commas counts as unusable. Changes nothing; never rejects.
 */
export async function readSettings(paths: Paths): Promise<SettingsRead> {
  let text: string;
  try {
    text = readSettingsText(paths.settingsFile);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { state: "missing" };
    return { state: "unusable", reason: `cannot be read: ${errorMessage(error)}` };
  }
  // Claude Code reads past a byte order mark (Windows editors write one), and so does claudecm.
  text = withoutBom(text);
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch (error) {
    const { parse } = await import("jsonc-parser");
    const errors: ParseError[] = [];
    parse(text, errors, { allowTrailingComma: true });
    return {
      state: "unusable",
      reason: errors.length === 0 && text.trim() !== ""
        ? "has comments or trailing commas, which are not JSON"
        : `is not valid JSON (${errorMessage(error)})`,
    };
  }
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
    return { state: "unusable", reason: "is not a JSON object" };
  }
  return {
    state: "parsed",
    text,
    cleanupPeriodDays: (settings as Record<string, unknown>).cleanupPeriodDays,
  };
}

/**
 * Whether a `cleanupPeriodDays` value keeps transcripts: a whole number of at
 * least 1000 (Claude Code takes only a positive integer: 1000.5 or 1e400 is
 * no period, and the default of 30 days applies).
 */
export function isProtectedPeriod(days: unknown): boolean {
  return typeof days === "number" && Number.isSafeInteger(days) && days >= MIN_CLEANUP_DAYS;
}

const BOM = "\ufeff";

function withoutBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

/**
 * Raise `cleanupPeriodDays` when it is unset or below 1000, after a backup;
 * create settings.json holding just that key when there is none. The edit
 * touches that one key, byte for byte elsewhere (bytes that are not UTF-8
 * included). A file Claude Code itself would skip (invalid JSON, comments)
 * is left alone. Never throws; returns whether the file was changed.
 */
export async function ensureCleanupPeriod(paths: Paths, now: Date): Promise<boolean> {
  try {
    const settings = await readSettings(paths);
    if (settings.state === "missing") return createSettings(paths);
    if (settings.state !== "parsed" || isProtectedPeriod(settings.cleanupPeriodDays)) return false;
    // Decoded so that every byte comes back as it was, even one that is not UTF-8.
    const whole = decodeLossless(readRegularBytes(paths.settingsFile, SETTINGS_MAX_BYTES));
    const text = withoutBom(whole);
    const bom = whole.slice(0, whole.length - text.length);
    const jsonc = await import("jsonc-parser");
    const edits = cleanupPeriodEdits(jsonc, text, settings.cleanupPeriodDays);
    backupSettings(paths, now);
    writeFileAtomic(paths.settingsFile, encodeLossless(bom + jsonc.applyEdits(text, edits)));
    return true;
  } catch {
    return false;
  }
}

/**
 * A new settings.json, never written over one that appeared meanwhile. Its
 * temporary file goes whatever happens: a full disk creates it empty and
 * fails the write, on every run until there is room.
 */
function createSettings(paths: Paths): boolean {
  Deno.mkdirSync(paths.claudeRoot, { recursive: true });
  // A link to a file not made yet (a dotfile manager's) is written through: the target is made.
  const target = realTarget(paths.settingsFile);
  const folder = paths.path.dirname(target);
  removeDeadWritersTemps(folder, { of: target });
  const tmp = `${target}.tmp-${Deno.pid}`;
  try {
    Deno.writeTextFileSync(tmp, `{\n  "cleanupPeriodDays": ${PROTECTED_CLEANUP_DAYS}\n}\n`);
    Deno.linkSync(tmp, target);
  } finally {
    try {
      Deno.removeSync(tmp);
    } catch {
      // Never created: the write's own error is the one to report.
    }
  }
  return true;
}

/**
 * The edits that set the key. Existing values are replaced where they stand:
 * every top-level `cleanupPeriodDays` that is not protected, because a file
 * can hold the key twice and JSON parsing (Claude Code's) takes the last one
 * while jsonc-parser's `modify` would change only the first. A new key goes
 * after the last property, in that property's indentation; jsonc-parser's
 * own formatter would re-indent the neighbouring property, so the insertion
 * text is built here.
 */
function cleanupPeriodEdits(jsonc: Jsonc, text: string, current: unknown): Edit[] {
  const root = jsonc.parseTree(text);
  if (root === undefined) return [];
  if (current !== undefined) {
    return (root.children ?? []).flatMap((property) => {
      const [key, value] = property.children ?? [];
      if (key?.value !== "cleanupPeriodDays" || value === undefined) return [];
      if (isProtectedPeriod(value.value)) return [];
      return [{ offset: value.offset, length: value.length, content: `${PROTECTED_CLEANUP_DAYS}` }];
    });
  }
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
