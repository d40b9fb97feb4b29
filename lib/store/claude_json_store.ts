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
import { writeFileAtomic } from "./atomic_write.ts";

const ATTEMPTS = 5;

/**
 * Rename the entries of `renames` whose `from` is present and whose `to` is
 * not (a repeat run renames nothing); returns the renames made. A missing
 * file has nothing to rename.
 */
export function renameClaudeJsonEntries(path: string, renames: EntryRename[]): EntryRename[] {
  for (let attempt = 1;; attempt++) {
    const before = readOrNull(path);
    if (before === null) return [];
    const keys = new Set(projectEntries(before).map((entry) => entry.key));
    const due = renames.filter((rename) => keys.has(rename.from) && !keys.has(rename.to));
    if (due.length === 0) return [];
    const after = renameProjectEntries(before, due);
    const now = readOrNull(path);
    if (now !== null && sameBytes(now, before)) {
      writeFileAtomic(path, after, { tmpSuffix: `.claudecm-${Deno.pid}` });
      return due;
    }
    if (attempt === ATTEMPTS) throw new Error(`${path} keeps changing; try again`);
  }
}

function readOrNull(path: string): Uint8Array | null {
  try {
    return Deno.readFileSync(path);
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
