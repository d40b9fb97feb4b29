/**
 * Writing Claude Code's `sessions-index.json` where one exists (spec
 * section 10): lib/core/session_index.ts decides the new content from the
 * transcripts on disk and the whole registry; this writes it atomically.
 *
 * @module
 */

import type { Paths } from "../core/paths.ts";
import type { Registry } from "../core/registry.ts";
import { planSessionIndexSync } from "../core/session_index.ts";
import { writeFileAtomic } from "./atomic_write.ts";

/**
 * Sync the index of `dir`'s project folder with the transcripts and
 * `registry` (the whole registry: every registered session's entry takes its
 * DESC). Best effort: returns whether it wrote, never throws, never blocks
 * claudecm.
 */
export function syncSessionIndex(paths: Paths, dir: string, registry: Registry): boolean {
  try {
    const update = planSessionIndexSync(paths, dir, registry);
    if (update === null) return false;
    writeFileAtomic(update.path, update.text);
    return true;
  } catch {
    return false;
  }
}
