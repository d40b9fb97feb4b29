/**
 * Renaming `projects` entries in Claude Code's `~/.claude.json`. A running
 * claude rewrites that file at any time, so the change is a compare-and-swap:
 * applied to the bytes just read, and written (atomically) only if the file
 * still holds those bytes; otherwise read again and re-applied.
 *
 * @module
 */

import {
  type EntryRename,
  projectEntries,
  renameProjectEntries,
} from "../core/claude_json_projects.ts";
import { realTarget, writeFileAtomic } from "./atomic_write.ts";
import { removeDeadWritersTempsOf } from "./stale_temps.ts";
import { readRegularBytes } from "../core/fs_checks.ts";

const ATTEMPTS = 5;

/**
 * Rename the entries of `renames` whose `from` is present and whose `to` is
 * not (a repeat run renames nothing); returns the renames made. A missing
 * file has nothing to rename.
 */
export function renameClaudeJsonEntries(path: string, renames: EntryRename[]): EntryRename[] {
  for (let attempt = 1;; attempt++) {
    const before = readClaudeJson(path);
    if (before === null) return [];
    const keys = new Set(projectEntries(before).map((entry) => entry.key));
    const due = renames.filter((rename) => keys.has(rename.from) && !keys.has(rename.to));
    if (due.length === 0) return [];
    const after = renameProjectEntries(before, due);
    const now = readClaudeJson(path);
    if (now !== null && sameBytes(now, before)) {
      removeDeadWritersTempsOf(realTarget(path)); // A killed move's copy (issue 30 item 15).
      writeFileAtomic(path, after, { tmpSuffix: `.claudecm-${Deno.pid}` });
      return due;
    }
    if (attempt === ATTEMPTS) throw new Error(`${path} keeps changing; try again`);
  }
}

/** Claude Code's `~/.claude.json` holds every project's history: large, but never this large. */
export const CLAUDE_JSON_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * The bytes of `~/.claude.json`; null when there is none. A pipe or device
 * at its name is refused, never read: the read would not end.
 */
export function readClaudeJson(path: string): Uint8Array | null {
  try {
    return readRegularBytes(path, CLAUDE_JSON_MAX_BYTES);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
