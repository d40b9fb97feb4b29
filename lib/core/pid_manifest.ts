/**
 * Claude Code's per-process manifests, `<claude root>/sessions/<pid>.json`
 * (DESIGN.md section 4): written at launch, deleted at exit, read-only for
 * claudecm. They tell which session a running claude is on.
 *
 * A session is live too while another claudecm runs claude on it (its
 * marker in `~/.claudecm/resuming/`, lib/store/resume_marker.ts): a resumed
 * claude may fork, and its manifest then names only the new id; a new
 * session's row exists before its claude has started and written a manifest.
 *
 * @module
 */

import { readDirOrEmpty, readRegularBytes } from "./fs_checks.ts";
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
  return readManifestFile(paths.path.join(paths.sessionsDir, `${pid}.json`));
}

/** A manifest is a few hundred bytes; more is not one. */
const MANIFEST_MAX_BYTES = 1024 * 1024;

function readManifestFile(path: string): PidManifest | null {
  try {
    // Only a regular file: a pipe at that name would hang every look at what is live.
    const bytes = readRegularBytes(path, MANIFEST_MAX_BYTES);
    return parseManifest(JSON.parse(new TextDecoder().decode(bytes)));
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
 * What the OS says about processes, as the decisions here take them (the
 * real ones: `lib/platform/processes.ts`; a test passes its own).
 */
export interface ProcessFacts {
  /** Whether a process with this pid runs (a zombie does not). */
  isAlive(pid: number): boolean;
  /** Whether this OS tells when a process started (Linux's `/proc`). */
  tellsStart: boolean;
  /** When the process started (field 22 of `/proc/<pid>/stat`); null when it cannot be read. */
  startOf(pid: number): string | null;
  /** This process's pid: its own marker is not another window's. */
  self: number;
}

/**
 * Whether the manifest's claude is still running: its pid is alive and,
 * where the OS tells start times, is the same process (the start time
 * matches), not a reused pid.
 */
export function isManifestLive(manifest: PidManifest, processes: ProcessFacts): boolean {
  if (!processes.isAlive(manifest.pid)) return false;
  if (!processes.tellsStart || manifest.procStart === undefined) return true;
  return processes.startOf(manifest.pid) === manifest.procStart;
}

/**
 * Every live holder of a session: running claudes' manifests and the
 * markers of other claudecm processes resuming one (same fields; this
 * process's own marker is not another window).
 */
export function findLiveHolders(paths: Paths, processes: ProcessFacts): PidManifest[] {
  const markers: PidManifest[] = [];
  for (const entry of readDirOrEmpty(paths.resumingDir)) {
    const match = /^(\d+)\.json$/.exec(entry.name);
    if (match === null || Number(match[1]) === processes.self) continue;
    const marker = readManifestFile(paths.path.join(paths.resumingDir, entry.name));
    if (marker !== null) markers.push(marker);
  }
  return [...listPidManifests(paths), ...markers].filter((m) => isManifestLive(m, processes));
}

function parseManifest(value: unknown): PidManifest | null {
  const manifest = value as Partial<PidManifest> | null;
  if (typeof manifest?.pid !== "number" || typeof manifest.sessionId !== "string") return null;
  if (!isSessionId(manifest.sessionId) || typeof manifest.cwd !== "string") return null;
  return manifest as PidManifest;
}
