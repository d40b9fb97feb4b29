/**
 * Registered sessions with transcripts, for end-to-end tests of the list,
 * search and edit flows.
 *
 * @module
 */

import type { LaunchWorld } from "./launch_world.ts";
import { finishedSession, save } from "./projects.ts";
import { projectDirFor } from "../../lib/core/paths.ts";

/** A session to seed: its name, and its folder when not the world's project. */
export interface SeedSpec {
  desc: string;
  dir?: string;
  tokens?: string;
  /** Leave the transcript out (a lost session). */
  missing?: boolean;
}

/** A seeded session's row. */
export interface SeededSession {
  guid: string;
  dir: string;
  desc: string;
}

/** Write a transcript for each spec (unless missing) and a registry listing them in order. */
export function seedSessions(
  world: LaunchWorld,
  specs: SeedSpec[],
  options: { archived?: SeedSpec[] } = {},
): { main: SeededSession[]; archived: SeededSession[] } {
  let n = 0;
  const seed = (spec: SeedSpec) => {
    const guid = `5eed0000-0000-4000-8000-${(++n).toString(16).padStart(12, "0")}`;
    const dir = spec.dir ?? world.project;
    Deno.mkdirSync(dir, { recursive: true });
    if (!spec.missing) {
      const folder = projectDirFor(world.paths, dir);
      Deno.mkdirSync(folder, { recursive: true });
      save(folder, finishedSession({ sessionId: guid, cwd: dir, ask: `Work on ${spec.desc}` }));
    }
    return { guid, dir, desc: spec.desc, line: `${guid}|${dir}|${spec.desc}|${spec.tokens ?? ""}` };
  };
  const main = specs.map(seed);
  const archived = (options.archived ?? []).map(seed);
  const lines = main.map((s) => s.line);
  if (archived.length > 0) lines.push("[archived]", ...archived.map((s) => s.line));
  Deno.writeTextFileSync(world.paths.registryFile, lines.map((line) => line + "\n").join(""));
  const strip = ({ guid, dir, desc }: SeededSession) => ({ guid, dir, desc });
  return { main: main.map(strip), archived: archived.map(strip) };
}

/** The bytes of the registry now, to prove a flow left it alone. */
export function registryBytes(world: LaunchWorld): Uint8Array {
  return Deno.readFileSync(world.paths.registryFile);
}
