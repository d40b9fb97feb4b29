/**
 * What a delete says (spec 11.12): what it takes, in red, before the typed
 * `delete`; why nothing (or not the row) went; what was deleted and what
 * could not be.
 *
 * @module
 */

import type { Output } from "../../ui/output.ts";
import type { Session } from "../../core/registry.ts";
import type { KeptSidecar } from "../session/kept_sidecar.ts";
import type { DeleteOutcome } from "./delete_plan.ts";

/** The confirmation's list: every path that goes, what stays and why, the vault's and the backup's copies. */
export function showWhatGoes(
  out: Output,
  { session, listed, noTranscript, staying, vaultCopy, setAside }: {
    session: Session;
    listed: string[];
    noTranscript: boolean;
    staying: KeptSidecar[];
    vaultCopy: string[];
    setAside: string[];
  },
): void {
  out.line();
  out.line(`  This permanently deletes '${session.desc}':`, "red");
  for (const path of listed) out.line(`    ${path}`, "red");
  if (noTranscript) out.line("    (no transcript is on disk)", "red");
  for (const kept of staying) {
    out.line(
      `  Its folder ${kept.sidecar} stays: session ${kept.namedBy}'s lines name files in it.`,
      "cyan",
    );
  }
  if (vaultCopy.length > 0) {
    // Its transcript, then the files of its folder and generations, counted.
    const more = vaultCopy.length > 1 ? ` (${vaultCopy.length} files)` : "";
    out.line(`  its copy in the vault: ${vaultCopy[0]}${more}`, "red");
  }
  if (setAside.length > 0) {
    out.line("  its copies set aside in the backup folder:", "red");
    for (const path of setAside) out.line(`    ${path}`, "red");
  }
  out.line("  and its entry in the session list. This cannot be undone.", "red");
}

/**
 * The re-check under the lock refused: nothing went, or (`acted`) the files
 * but not the row. `entryThere`: the row is still in the list.
 */
export function sayRefusedStep(
  out: Output,
  { reason, acted, entryThere }: { reason: string; acted: boolean; entryThere: () => boolean },
): void {
  if (acted) {
    // The files went; the row stays, and so do the vault's and the backup's copies: a D# again
    // finishes it, and until then the session is restorable.
    out.line(`  The files were deleted, but ${reason}.`, "red");
    out.line("  The entry is kept, and the vault's copy with it: D# it again to finish.", "red");
    return;
  }
  out.line(`  Nothing was deleted: ${reason}.`, "red");
  // Another window may have removed the row itself: say "kept" only of an entry that is there.
  if (entryThere()) out.line("  The entry is kept.", "red");
}

/** What the delete that acted did: all of it, or what could not be removed. */
export function sayDeleted(
  out: Output,
  { session, outcome }: { session: Session; outcome: DeleteOutcome },
): void {
  if (outcome.status === "deleted") {
    out.line(`  Deleted: ${session.desc}`, "green");
    return;
  }
  if (outcome.status !== "partial") return;
  out.line(
    outcome.entryKept
      ? `  '${session.desc}' was not deleted whole; the entry is kept. Not removed:`
      : `  Deleted: ${session.desc}, except these, which could not be removed:`,
    "red",
  );
  for (const failure of outcome.failures) out.line(`    ${failure}`, "red");
}
