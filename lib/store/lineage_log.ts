/**
 * claudecm's own record of how sessions follow one another
 * (`~/.claudecm/lineage.jsonl`): one JSON line per step that makes a session
 * out of another or moves one (a fork the row followed, a `--fork-session`
 * branch given its own row, a refresh, a trim, a move between folders).
 * Claude Code keeps no such record (its `forkedFrom`, `continued-in` and
 * `fork-context-ref` lines are read by lib/transcript/lineage.ts); without
 * this one, `claudecm tree` could not tell a refresh's successor from an
 * unrelated session. Append-only: each event is one short line written with
 * a single append, so two windows never interleave within a line, and a
 * line that does not parse is skipped by the reader.
 *
 * @module
 */

import { withPath } from "../core/errors.ts";
import { isNotFound } from "../core/fs_checks.ts";
import type { Paths } from "../core/paths.ts";

/** What made `to` out of `from`. */
export type LineageEventKind = "fork" | "fork-session" | "refresh" | "trim" | "move";

/** One recorded step. */
export interface LineageEvent {
  kind: LineageEventKind;
  /** The session it started from. */
  from: string;
  /** The session it made (the same id for a move). */
  to: string;
  /** When, as an ISO timestamp. */
  at: string;
  /** A move's folders. */
  fromDir?: string;
  toDir?: string;
}

const KINDS: ReadonlySet<string> = new Set(["fork", "fork-session", "refresh", "trim", "move"]);

/** The log's path. */
export function lineageLogPath(paths: Paths): string {
  return paths.path.join(paths.cmHome, "lineage.jsonl");
}

/** Append `event` to the log (the folder is made if need be); throws what the write met. */
export function appendLineageEvent(paths: Paths, event: LineageEvent): void {
  const path = lineageLogPath(paths);
  const line = new TextEncoder().encode(`${JSON.stringify(event)}\n`);
  try {
    Deno.mkdirSync(paths.cmHome, { recursive: true });
    const file = Deno.openSync(path, { append: true, create: true });
    try {
      // One write: an O_APPEND write of a short line lands whole, whatever another window writes.
      let written = 0;
      while (written < line.length) written += file.writeSync(line.subarray(written));
    } finally {
      file.close();
    }
  } catch (error) {
    throw withPath(error, path);
  }
}

/** Every event the log holds, in the order written; an absent log holds none. */
export function readLineageEvents(paths: Paths): LineageEvent[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(lineageLogPath(paths));
  } catch (error) {
    if (isNotFound(error)) return [];
    throw withPath(error, lineageLogPath(paths));
  }
  const events: LineageEvent[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line);
      if (
        typeof value === "object" && value !== null && KINDS.has(value.kind) &&
        typeof value.from === "string" && typeof value.to === "string"
      ) {
        events.push({
          kind: value.kind,
          from: value.from,
          to: value.to,
          at: typeof value.at === "string" ? value.at : "",
          fromDir: typeof value.fromDir === "string" ? value.fromDir : undefined,
          toDir: typeof value.toDir === "string" ? value.toDir : undefined,
        });
      }
    } catch {
      // A line cut by a crash or a full disk: the rest still count.
    }
  }
  return events;
}
