/**
 * Whether a session set aside (a fork's predecessor, a pre-trim transcript,
 * a quarantined orphan) leaves its sidecar folder where it is: it does while
 * a registered session's lines name files in it, as a fork's copied lines
 * name the predecessor's `<id>/tool-results/…` by absolute path (DESIGN.md
 * decision 24). The transcript itself still goes.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { isDirectory } from "../../core/fs_checks.ts";
import {
  archivedSessions,
  mainSessions,
  namedSessionIds,
  type Session,
} from "../../core/registry.ts";
import { createLocateCache, locateTranscript } from "../../core/transcript_location.ts";
import { findSessionCopies } from "../../core/session_copies.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { listTranscripts } from "../../transcript/project_dir.ts";
import { namesPathsIn } from "../../transcript/named_paths.ts";

/** What a set-aside keeps of a session's sidecar, and for whom. */
export interface KeptSidecar {
  /** The sidecar folder that stays. */
  sidecar: string;
  /** The registered session whose lines name files in it. */
  namedBy: string;
}

/**
 * The registered session (checked first: `successor`, else the others in
 * `folder`, then with `everywhere` every registered one wherever it is) whose
 * transcript names files in session `guid`'s sidecar in `folder`; null when
 * none does or there is no sidecar. A transcript that cannot be read is
 * passed over. A flow that sets a session aside for its successor checks
 * that successor and the folder; a delete or a quarantine, which no
 * successor follows and a person picked, checks every registered session
 * (`everywhere`), as vault prune does.
 */
export function keptSidecar(
  ctx: AppContext,
  options: { folder: string; guid: string; successor?: string; everywhere?: boolean },
): KeptSidecar | null {
  const { join, sep } = ctx.paths.path;
  const sidecar = join(options.folder, options.guid);
  if (!isDirectory(sidecar)) return null;
  let registered: Set<string>;
  let rows: Session[] = [];
  try {
    const registry = readRegistry(ctx.paths);
    registered = namedSessionIds(registry);
    if (options.everywhere) rows = [...mainSessions(registry), ...archivedSessions(registry)];
  } catch {
    // The list cannot be read now: the successor, which the caller just registered, still counts.
    registered = new Set(options.successor === undefined ? [] : [options.successor]);
  }
  const others = listTranscripts(options.folder)
    .filter((file) => file.id !== options.guid && file.id !== options.successor)
    .filter((file) => registered.has(file.id));
  // The successor first, wherever claude wrote it (a fork goes to the folder claude ran in, which
  // is not always where the predecessor was).
  const successor = options.successor !== undefined && registered.has(options.successor)
    ? findSessionCopies(ctx.paths, options.successor)
      .map((copy) => ({ id: options.successor!, path: copy.transcript }))
    : [];
  const named = (candidate: { id: string; path: string }): boolean => {
    try {
      return namesPathsIn(candidate.path, sidecar, sep);
    } catch {
      // Gone or unreadable since the listing: it names nothing here.
      return false;
    }
  };
  for (const candidate of [...successor, ...others]) {
    if (named(candidate)) return { sidecar, namedBy: candidate.id };
  }
  const seen = new Set([options.guid, ...others.map((file) => file.id)]);
  const cache = createLocateCache();
  for (const row of rows) {
    if (seen.has(row.guid)) continue;
    seen.add(row.guid);
    const located = locateTranscript(ctx.paths, row, cache);
    if (located.status === "found" && named({ id: row.guid, path: located.path })) {
      return { sidecar, namedBy: row.guid };
    }
  }
  return null;
}

/** One line: the sidecar that stayed, and why. */
export function sayKept(ctx: AppContext, kept: KeptSidecar): void {
  ctx.out.line(
    `  Its folder ${kept.sidecar} stays: session ${kept.namedBy}'s lines name files in it.`,
    "cyan",
  );
}
