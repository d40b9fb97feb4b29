/**
 * A resume claude went on with in another session without a new file in
 * the project folder to tell it by: a `continued-in` record (lineage.ts),
 * written when the conversation moves to the background, names it.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { namedSessionIds } from "../../core/registry.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { continuedIn, lineageRecords } from "../../transcript/lineage.ts";

/**
 * The session claude recorded, during this run, that this one went on in (a
 * `continued-in` line, lineage.ts), when it is no row's and its transcript is on disk:
 * claude moved the conversation there (to the background) without a new
 * file in this folder to tell it by.
 */
export function handedOn(
  ctx: AppContext,
  { guid, dir, transcript, from }: {
    guid: string;
    dir: string;
    transcript: string | null;
    /** Where this run's lines start: only they can say where this run went on. */
    from: number;
  },
): string | null {
  let next: string | undefined;
  try {
    next = transcript === null
      ? undefined
      : continuedIn(lineageRecords(transcript, { start: from }));
  } catch {
    return null;
  }
  if (next === undefined || next === guid) return null;
  if (namedSessionIds(readRegistry(ctx.paths)).has(next)) return null;
  return locateTranscript(ctx.paths, { guid: next, dir }).status === "found" ? next : null;
}
