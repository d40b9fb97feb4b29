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
 * Whether the manifest's claude is still running: its pid is alive and, on
 * Linux, is the same process (the start time matches), not a reused pid.
 */
export function isManifestLive(manifest: PidManifest): boolean {
  if (!isProcessAlive(manifest.pid)) return false;
  if (Deno.build.os !== "linux" || manifest.procStart === undefined) return true;
  return linuxProcessStart(manifest.pid) === manifest.procStart;
}

/** Whether a running claude is on session `guid`, or another claudecm is resuming it. */
export function isSessionLive(paths: Paths, guid: string): boolean {
  return liveHolders(paths).some((m) => m.sessionId === guid);
}

/** The sessions a running claude is on now, or another claudecm resumes, read once for a list. */
export function liveSessionIds(paths: Paths): Set<string> {
  return new Set(liveHolders(paths).map((m) => m.sessionId));
}

/**
 * Every live holder of a session: running claudes' manifests and the
 * markers of other claudecm processes resuming one (same fields; this
 * process's own marker is not another window).
 */
export function liveHolders(paths: Paths): PidManifest[] {
  const markers: PidManifest[] = [];
  for (const entry of readDirOrEmpty(paths.resumingDir)) {
    const match = /^(\d+)\.json$/.exec(entry.name);
    if (match === null || Number(match[1]) === Deno.pid) continue;
    const marker = readManifestFile(paths.path.join(paths.resumingDir, entry.name));
    if (marker !== null) markers.push(marker);
  }
  return [...listPidManifests(paths), ...markers].filter(isManifestLive);
}

/** Field 22 of /proc/<pid>/stat (Linux), which tells a reused pid from the process; else null. */
export function processStart(pid: number): string | null {
  return Deno.build.os === "linux" ? linuxProcessStart(pid) : null;
}

/**
 * Whether a process with this pid exists: `Deno.kill` with signal 0 probes
 * without signalling (node:process would load Deno's Node layer, slowing
 * every start). A pid that cannot be a claude (not a positive integer) is
 * not alive. Only "no such process" means gone: EPERM means it exists under
 * someone else, and any other failure counts as alive too, because a
 * session wrongly thought running is only refused an action, while one
 * wrongly thought gone could be moved or deleted under a running claude.
 * A zombie (Linux) is gone: it has exited.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    Deno.kill(pid, 0);
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
  // A zombie has exited and only waits for its parent to reap it (a killed writer whose parent
  // went too waits for init): it writes nothing more. Linux says so in /proc.
  return Deno.build.os !== "linux" || linuxStatField(pid, 3) !== "Z";
}

/**
 * Whether process `pid` is `ancestor` or runs below it (a claude a shim
 * started); null where that cannot be told (no `/proc`: Windows, macOS).
 */
export function descendsFrom(pid: number, ancestor: number): boolean | null {
  if (Deno.build.os !== "linux") return null;
  let current: number | null = pid;
  // A shim's claude is a child or a grandchild (cmd, sh, node); a few levels are plenty.
  for (let depth = 0; depth < 8 && current !== null && current > 1; depth++) {
    if (current === ancestor) return true;
    const parent = linuxStatField(current, 4);
    current = parent === null ? null : Number(parent);
  }
  return false;
}

function linuxProcessStart(pid: number): string | null {
  return linuxStatField(pid, 22);
}

/** Field `n` (1-based, as proc(5) counts) of `/proc/<pid>/stat`; null when unreadable. */
function linuxStatField(pid: number, n: number): string | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name (field 2) may hold spaces and parentheses; count from its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[n - 3] ?? null;
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
