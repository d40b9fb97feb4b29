/**
 * Claude Code's per-process manifests, `<claude root>/sessions/<pid>.json`
 * (DESIGN.md section 4): written at launch, deleted at exit, read-only for
 * claudecm. They tell which session a running claude is on.
 *
 * @module
 */

import { readDirOrEmpty } from "./fs_checks.ts";
import type { Paths } from "./paths.ts";
import { isSessionId } from "./registry.ts";

/** The manifest fields claudecm relies on. */
export interface PidManifest {
  pid: number;
  sessionId: string;
  cwd: string;
  startedAt?: number;
  /** Linux: field 22 of /proc/<pid>/stat when claude started, to tell a reused pid. */
  procStart?: string;
  version?: string;
  kind?: string;
  name?: string;
  status?: string;
}

/** The manifest of process `pid`, or null when absent or not a manifest. */
export function readPidManifest(paths: Paths, pid: number): PidManifest | null {
  try {
    const text = Deno.readTextFileSync(paths.path.join(paths.sessionsDir, `${pid}.json`));
    return parseManifest(JSON.parse(text));
  } catch {
    return null;
  }
}

/** Every readable manifest in the sessions dir. */
export function listPidManifests(paths: Paths): PidManifest[] {
  const manifests: PidManifest[] = [];
  // No sessions dir: no running claude.
  for (const entry of readDirOrEmpty(paths.sessionsDir)) {
    const match = /^(\d+)\.json$/.exec(entry.name);
    const manifest = match ? readPidManifest(paths, Number(match[1])) : null;
    if (manifest) manifests.push(manifest);
  }
  return manifests;
}

/**
 * Whether the manifest's claude is still running: its pid is alive and, on
 * Linux, is the same process (the start time matches), not a reused pid.
 */
export function isManifestLive(manifest: PidManifest): boolean {
  if (!isProcessAlive(manifest.pid)) return false;
  if (Deno.build.os !== "linux" || manifest.procStart === undefined) return true;
  return linuxProcessStart(manifest.pid) === manifest.procStart;
}

/** Whether a running claude is on session `guid` (some window has it open). */
export function isSessionLive(paths: Paths, guid: string): boolean {
  return listPidManifests(paths).some((m) => m.sessionId === guid && isManifestLive(m));
}

/** The sessions a running claude is on now, read once for a whole list. */
export function liveSessionIds(paths: Paths): Set<string> {
  return new Set(listPidManifests(paths).filter(isManifestLive).map((m) => m.sessionId));
}

/**
 * Whether a process with this pid exists: `Deno.kill` with signal 0 probes
 * without signalling (node:process would load Deno's Node layer, slowing
 * every start). A pid that cannot be a claude (not a positive integer) is
 * not alive. Only "no such process" means gone: EPERM means it exists under
 * someone else, and any other failure counts as alive too, because a
 * session wrongly thought running is only refused an action, while one
 * wrongly thought gone could be moved or deleted under a running claude.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    Deno.kill(pid, 0);
    return true;
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
}

function linuxProcessStart(pid: number): string | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name (field 2) may hold spaces and parentheses; count from its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[22 - 3] ?? null;
  } catch {
    return null;
  }
}

function parseManifest(value: unknown): PidManifest | null {
  const manifest = value as Partial<PidManifest> | null;
  if (typeof manifest?.pid !== "number" || typeof manifest.sessionId !== "string") return null;
  if (!isSessionId(manifest.sessionId) || typeof manifest.cwd !== "string") return null;
  return manifest as PidManifest;
}
