/**
 * `claudecm tree [SESSION]`: a session's family (what it was forked,
 * branched, refreshed or trimmed from, and what came of it), or with no
 * session every family of more than one member. It changes no transcript and
 * no registry; the one file it writes is its own cache of what the
 * transcripts hold (cached_lineage.ts), derived data that is never an error.
 *
 * @module
 */

import { familiesOf, type FamilyLink, layOut, uniqueLinks } from "../../core/family.ts";
import { ExitCode, UserError } from "../../core/errors.ts";
import {
  archivedSessions,
  mainSessions,
  type Registry,
  type Session,
} from "../../core/registry.ts";
import { cleanName, safeJson } from "../../core/safe_text.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { readTail } from "../../transcript/tail.ts";
import type { AppContext } from "../context.ts";
import { ownMachineNames } from "../bootstrap/machine_name.ts";
import { withoutOwnPrefix } from "../../transcript/session_title.ts";
import { listNumbersOf } from "../session/list_numbers.ts";
import { resolveSessionOrId } from "../session/session_or_id.ts";
import { type FamilyWorld, readFamilyWorld } from "./family_links.ts";
import type { TranscriptPlace } from "../session/session_transcripts.ts";
import { type FamilyNode, familyText } from "./tree_view.ts";

/** What `tree` was asked. */
export interface TreeOptions {
  /** The session whose family to show; every family when absent. */
  session?: string;
  json?: boolean;
}

/** Run `tree`; returns the exit code. */
export function runTree(ctx: AppContext, options: TreeOptions): number {
  const registry = readRegistry(ctx.paths);
  const asked = options.session === undefined
    ? undefined
    : resolveSessionOrId(ctx, options.session, registry).guid;
  const world = readFamilyWorld(ctx);
  const links = uniqueLinks(world.links);
  let families = familiesOf(links);
  if (asked !== undefined) {
    const own = families.find((family) => family.includes(asked));
    if (own === undefined && !world.transcripts.has(asked) && !isRegistered(registry, asked)) {
      throw new UserError(`no session ${asked} in the list or on disk`, ExitCode.notFound);
    }
    families = [own ?? [asked]];
  }
  const nodes = nodesOf(registry, world, families.flat(), ownMachineNames(ctx));
  if (options.json) {
    const family = (members: string[]) => ({
      nodes: members.map((id) => nodes.get(id)!),
      edges: linksWithin(links, members),
    });
    ctx.out.line(safeJson(
      asked === undefined
        ? { families: families.map(family) }
        : { session: asked, ...family(families[0]) },
      2,
    ));
    return ExitCode.ok;
  }
  if (families.length === 0) {
    ctx.out.line(
      "No families: no session was forked, branched, refreshed or trimmed from another.",
    );
    return ExitCode.ok;
  }
  families.forEach((members, i) => {
    if (i > 0) ctx.out.line();
    for (const line of familyText(layOut(members, links), nodes)) ctx.out.line(line);
  });
  if (asked !== undefined && families[0].length === 1) {
    ctx.out.line("  (no relatives recorded: not forked, branched, refreshed or trimmed)");
  }
  return ExitCode.ok;
}

function isRegistered(registry: Registry, id: string): boolean {
  return [...mainSessions(registry), ...archivedSessions(registry)].some((s) => s.guid === id);
}

function linksWithin(links: FamilyLink[], members: string[]): FamilyLink[] {
  const inFamily = new Set(members);
  return links.filter((link) => inFamily.has(link.from) && inFamily.has(link.to));
}

/** Each member's name, place in the list and where its transcript is. */
function nodesOf(
  registry: Registry,
  world: FamilyWorld,
  ids: string[],
  machine: readonly string[],
): Map<string, FamilyNode> {
  const main = mainSessions(registry);
  const archived = archivedSessions(registry);
  const numbers = listNumbersOf(registry);
  const nodes = new Map<string, FamilyNode>();
  for (const id of ids) {
    const listNumber = numbers.get(id) ?? null;
    const row: Session | undefined = listNumber !== null
      ? main[listNumber - 1]
      : archived.find((s) => s.guid === id);
    const transcript = world.transcripts.get(id);
    const place: TranscriptPlace = transcript?.place ?? "none";
    let title: string | undefined;
    if (row === undefined && transcript !== undefined) {
      try {
        const tail = readTail(transcript.path);
        // claude keeps claudecm's `-n "<machine> - <name>"` as the title: the prefix is not its name.
        const found = tail.customTitle ?? tail.aiTitle;
        title = found === undefined ? undefined : withoutOwnPrefix(cleanName(found), machine);
      } catch {
        // Unreadable: shown by its id.
      }
    }
    nodes.set(id, {
      id,
      name: cleanName(row?.desc || title || "") || null,
      folder: row?.dir ?? null,
      listNumber,
      archived: listNumber === null && row !== undefined,
      transcript: place,
      transcriptPath: transcript?.path ?? null,
      moves: world.moves.get(id) ?? [],
    });
  }
  return nodes;
}
