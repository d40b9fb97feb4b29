/**
 * What a rescue killed between its writes left unfinished. Thread files are
 * the record; INDEX.md and recent.md are rebuilt from them on every run that
 * writes, and handoff.json from the threads written after it (the ones an
 * interrupted run never announced). Temporary files of writers that died are
 * removed.
 *
 * @module
 */

import { join } from "../../core/path.ts";
import { readDirOrEmpty } from "../../core/fs_checks.ts";
import { removeDeadWritersTemps } from "../../store/stale_temps.ts";
import type { Thread } from "./thread.ts";
import { compareText } from "../../core/compare_text.ts";

/**
 * Remove the temporary files of the thread and index files (`*.json`,
 * `*.md`) that writers which died left in the threads folder; the folder is
 * the user's, so nothing else in it.
 */
export function removeStaleTemps(threadsDir: string): void {
  removeDeadWritersTemps(threadsDir, { named: (name) => /\.(?:json|md)$/.test(name) });
}

/**
 * The recovered threads handoff.json does not announce: those written after
 * it, or, with no handoff.json at all, the newest recovered thread.
 */
export function unannouncedThreads(threadsDir: string): Thread[] {
  const handoffTime = mtimeOf(join(threadsDir, "handoff.json"));
  const threads: { thread: Thread; mtime: number }[] = [];
  for (const entry of readDirOrEmpty(threadsDir)) {
    if (!entry.isFile || !entry.name.endsWith(".json") || entry.name === "handoff.json") continue;
    const path = join(threadsDir, entry.name);
    const thread = readRecoveredThread(path);
    const mtime = mtimeOf(path);
    if (thread !== null && mtime !== null) threads.push({ thread, mtime });
  }
  if (handoffTime !== null) {
    return threads.filter((item) => item.mtime > handoffTime).map((item) => item.thread);
  }
  const newest = threads.map((item) => item.thread)
    .sort((a, b) => compareText(b.created_at, a.created_at))[0];
  return newest === undefined ? [] : [newest];
}

/** A thread file a rescue wrote, with the fields its handoff needs; null for anything else. */
function readRecoveredThread(path: string): Thread | null {
  let value: Partial<Thread>;
  try {
    value = JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return null;
  }
  const fine = typeof value === "object" && value !== null && value.category === "recovered" &&
    typeof value.id === "string" && typeof value.created_at === "string" &&
    typeof value.summary === "string" && Array.isArray(value.next_actions) &&
    typeof value.recovery?.original_slug === "string";
  return fine ? value as Thread : null;
}

function mtimeOf(path: string): number | null {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? null;
  } catch {
    return null;
  }
}
