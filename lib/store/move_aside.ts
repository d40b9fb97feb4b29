/**
 * Moving a session's files out of a Claude project folder without deleting
 * them: the fork predecessor and the pre-trim transcript go to
 * `~/.claudecm/backup/<leaf>/`, orphans to the quarantine root (spec 3.1).
 * Callers pass the destination; this module only moves.
 *
 * @module
 */

import { copySync } from "./copy.ts";
import { pathExists } from "../core/fs_checks.ts";

/** What a move did: the paths the files now have. */
export interface MovedSession {
  transcript: string | null;
  sidecar: string | null;
}

/**
 * Move `<guid>.jsonl` and its sidecar dir `<guid>/` (if present) from
 * `projectFolder` into `destDir`, creating it. A name already taken in
 * `destDir` gets a numeric suffix, so an earlier copy is never overwritten.
 * With `keepSidecar`, the sidecar stays where it is (a registered session's
 * lines name files in it: DESIGN.md decision 24).
 */
export function moveSessionAside(
  projectFolder: string,
  guid: string,
  options: { destDir: string; join: (...parts: string[]) => string; keepSidecar?: boolean },
): MovedSession {
  const { destDir, join } = options;
  Deno.mkdirSync(destDir, { recursive: true });
  const move = (name: string): string | null => {
    const source = join(projectFolder, name);
    if (!pathExists(source)) return null;
    const target = freeName(destDir, name, join);
    moveCrossDevice(source, target);
    return target;
  };
  return {
    transcript: move(`${guid}.jsonl`),
    sidecar: options.keepSidecar ? null : move(guid),
  };
}

function freeName(dir: string, name: string, join: (...parts: string[]) => string): string {
  let candidate = join(dir, name);
  for (let n = 1; pathExists(candidate); n++) candidate = join(dir, `${name}.${n}`);
  return candidate;
}

/** Rename, or copy then remove when source and target are on different devices. */
function moveCrossDevice(source: string, target: string): void {
  try {
    Deno.renameSync(source, target);
  } catch (error) {
    // EXDEV (os error 18) on Unix, ERROR_NOT_SAME_DEVICE (os error 17) on Windows.
    if (!/cross-device|os error 1[78]\b/i.test(String(error))) throw error;
    copySync(source, target);
    Deno.removeSync(source, { recursive: true });
  }
}
