/**
 * What a delete takes and how it ended, decided without a question or a
 * file touched (tests/delete_plan_test.ts): the paths the confirmation
 * lists, which are what is removed, and the outcome from what could not be
 * removed.
 *
 * @module
 */

import type { SessionFiles } from "../../core/session_copies.ts";

/** How a delete ended. */
export type DeleteOutcome =
  | { status: "deleted"; removed: string[] }
  /** Deleted, except `failures` (the row goes once no transcript is left, else it stays). */
  | { status: "partial"; removed: string[]; failures: string[]; entryKept: boolean }
  | { status: "cancelled" }
  /** Nothing deleted, or (with `acted`) the files but not the row: `reason` says why. */
  | { status: "refused"; reason: string; acted?: boolean };

/**
 * The paths of `copies` the confirmation lists, in order: each transcript,
 * and its sidecar unless it is `staying` (another registered session's lines
 * name files in it); only what is `present`.
 */
export function listedPaths(
  copies: readonly SessionFiles[],
  { staying, present }: {
    staying: ReadonlyArray<{ sidecar: string }>;
    present: (path: string) => boolean;
  },
): string[] {
  return copies.flatMap((files) => {
    const stays = staying.some((kept) => kept.sidecar === files.sidecar);
    return [files.transcript, ...(stays ? [] : [files.sidecar])].filter(present);
  });
}

/**
 * How a delete that acted ended: whole, or with `failures` named; the row
 * went unless a transcript was left (`transcriptLeft`).
 */
export function deleteOutcome(
  { removed, failures, transcriptLeft }: {
    removed: string[];
    failures: string[];
    transcriptLeft: boolean;
  },
): DeleteOutcome {
  if (failures.length === 0) return { status: "deleted", removed };
  return { status: "partial", removed, failures, entryKept: transcriptLeft };
}
