/**
 * The moves that follow a move's sessions: each project key's `memory/`, and
 * the vault's copies of the rows' sessions (layout: core/session_copies.ts),
 * with the older generations of a replaced transcript.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { FileMove, MovePlan } from "./move_plan.ts";
import { isDirectory, pathExists } from "../../core/fs_checks.ts";
import { join } from "../../core/path.ts";
import { projectDirFor } from "../../core/paths.ts";
import type { Session } from "../../core/registry.ts";
import { vaultFilesFor } from "../../core/session_copies.ts";
import { generationPath, MAX_GENERATIONS } from "../../store/vault_file_sync.ts";

/**
 * `memory/` of each key folder of a folder under OLD, to the new folder's
 * key; left where it is when sessions of another folder stay beside it.
 */
export function memoryMoves(
  ctx: AppContext,
  plan: MovePlan,
  { owners, under }: { owners: Set<string>; under: (dir: string) => string | undefined },
): FileMove[] {
  const moves: FileMove[] = [];
  const seen = new Set<string>();
  for (const owner of owners) {
    const folder = projectDirFor(ctx.paths, owner);
    const memory = ctx.paths.path.join(folder, "memory");
    if (seen.has(folder) || !isDirectory(memory)) continue;
    seen.add(folder);
    if (plan.staying.some((stay) => stay.folder === folder)) continue;
    const target = ctx.paths.path.join(projectDirFor(ctx.paths, under(owner)!), "memory");
    if (target !== memory) moves.push(fileMove("memory", memory, target));
  }
  return moves;
}

/** The vault's copies of the rows' sessions, if the vault exists (layout: session_copies.ts). */
export function vaultMoves(
  ctx: AppContext,
  rows: Session[],
  under: (dir: string) => string | undefined,
): FileMove[] {
  if (!isDirectory(ctx.paths.vaultDir)) return [];
  const moves: FileMove[] = [];
  for (const session of rows) {
    const source = vaultFilesFor(ctx.paths, session);
    const dest = vaultFilesFor(ctx.paths, { guid: session.guid, dir: under(session.dir)! });
    if (source.folder === dest.folder) continue;
    for (const key of ["sidecar", "transcript"] as const) {
      if (pathExists(source[key])) {
        moves.push(fileMove("vault", source[key], dest[key], session.guid));
      }
    }
    // A replaced transcript's older generations travel with it (vault_file_sync.ts).
    for (let n = 1; n <= MAX_GENERATIONS; n++) {
      const generation = generationPath(source.transcript, n);
      if (!pathExists(generation)) continue;
      moves.push(
        fileMove("vault", generation, generationPath(dest.transcript, n), session.guid),
      );
    }
  }
  return moves;
}

/** One file or folder of `kind` to rename, measured now. */
export function fileMove(
  kind: FileMove["kind"],
  from: string,
  to: string,
  guid?: string,
): FileMove {
  return { kind, from, to, bytes: treeSize(from), ...(guid === undefined ? {} : { guid }) };
}

function treeSize(path: string): number {
  const info = Deno.lstatSync(path);
  if (!info.isDirectory) return info.size;
  let total = 0;
  for (const entry of Deno.readDirSync(path)) total += treeSize(join(path, entry.name));
  return total;
}
