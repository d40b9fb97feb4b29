/**
 * The unregistered sessions the vault keeps for a registered one (issue 30
 * items 3 and 4, DESIGN.md decision 24): a session whose sidecar folder a
 * registered session's lines name (a fork's copied lines name the
 * predecessor's `<id>/tool-results/…`), and a parent Claude Code records
 * for a registered session (`/branch`'s `forkedFrom`, a subagent's
 * `fork-context-ref`). Such an entry stays while the session pointing at it
 * is registered; `vault prune` leaves it.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { archivedSessions, mainSessions, type Registry } from "../../core/registry.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { foldersNamedIn } from "../../transcript/named_paths.ts";
import { parentSessionIds, sessionLineageRecords } from "../../transcript/lineage.ts";

/** An unregistered vault entry, by its key folder's name and session id. */
export interface CandidateEntry {
  key: string;
  guid: string;
}

/**
 * Of `candidates`, the session ids a registered session points at, each
 * with the registered session that does. A registered transcript that
 * cannot be read points at nothing.
 */
export function pointedAtSessions(
  ctx: AppContext,
  registry: Registry,
  candidates: readonly CandidateEntry[],
): Map<string, string> {
  const pointed = new Map<string, string>();
  if (candidates.length === 0) return pointed;
  const { join, sep } = ctx.paths.path;
  const wanted = new Set(candidates.map((c) => c.guid));
  // Where each candidate's sidecar was (the vault mirrors the projects root's key folders).
  const sidecars = new Map(candidates.map((c) => [join(ctx.paths.projectsDir, c.key, c.guid), c]));
  for (const session of [...mainSessions(registry), ...archivedSessions(registry)]) {
    const located = locateTranscript(ctx.paths, session);
    if (located.status !== "found") continue;
    try {
      for (const parent of parentSessionIds(sessionLineageRecords(located.path), session.guid)) {
        if (wanted.has(parent) && !pointed.has(parent)) pointed.set(parent, session.guid);
      }
      const open = [...sidecars.keys()].filter((folder) =>
        !pointed.has(sidecars.get(folder)!.guid)
      );
      for (const folder of foldersNamedIn(located.path, open, sep)) {
        pointed.set(sidecars.get(folder)!.guid, session.guid);
      }
    } catch {
      // Unreadable now: it points at nothing this run.
    }
    if (pointed.size === wanted.size) break;
  }
  return pointed;
}
