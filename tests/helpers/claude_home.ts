/**
 * Builders for what Claude Code leaves on disk, for tests: transcripts under
 * a project key folder, a sessions-index.json, a registry file.
 *
 * @module
 */

import { type Paths, projectDirFor } from "../../lib/core/paths.ts";

/** Write `<projects>/<key of dir>/<guid>.jsonl`; returns its path. */
export function writeTranscript(
  paths: Paths,
  dir: string,
  guid: string,
  options: { lines?: unknown[]; mtime?: Date } = {},
): string {
  const folder = projectDirFor(paths, dir);
  Deno.mkdirSync(folder, { recursive: true });
  const path = paths.path.join(folder, `${guid}.jsonl`);
  const lines = options.lines ?? [{ type: "user", sessionId: guid, cwd: dir }];
  Deno.writeTextFileSync(path, lines.map((line) => JSON.stringify(line) + "\n").join(""));
  if (options.mtime) Deno.utimeSync(path, options.mtime, options.mtime);
  return path;
}

/** Write the registry file as given. */
export function writeRegistryText(paths: Paths, text: string): void {
  Deno.mkdirSync(paths.cmHome, { recursive: true });
  Deno.writeTextFileSync(paths.registryFile, text);
}

/** A deterministic session id from a small number. */
export function sessionId(n: number): string {
  const hex = n.toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-0000-4000-8000-${hex}`;
}
