/**
 * Which sessions are live on this machine: claude's manifests and other
 * claudecm processes' markers (`lib/core/pid_manifest.ts` reads and
 * decides) checked against this machine's processes
 * (`lib/platform/processes.ts`). Every "is it open in a claude window?"
 * asks here.
 *
 * @module
 */

import { findLiveHolders, type PidManifest } from "../core/pid_manifest.ts";
import type { Paths } from "../core/paths.ts";
import { hostProcesses } from "./processes.ts";

/** Whether a running claude is on session `guid`, or another claudecm is resuming it. */
export function isSessionLive(paths: Paths, guid: string): boolean {
  return liveHolders(paths).some((m) => m.sessionId === guid);
}

/** The sessions a running claude is on now, or another claudecm resumes, read once for a list. */
export function liveSessionIds(paths: Paths): Set<string> {
  return new Set(liveHolders(paths).map((m) => m.sessionId));
}

/** Every live holder of a session now: running claudes' manifests and other claudecms' markers. */
export function liveHolders(paths: Paths): PidManifest[] {
  return findLiveHolders(paths, hostProcesses);
}
