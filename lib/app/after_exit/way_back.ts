/**
 * How to get back to a session once claude has exited: its list number as
 * the list now stands (issue 31 defect 4). claude itself prints its own
 * `--resume <uuid>`, which bypasses claudecm.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { mainSessions } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** `claudecm resume N` for session `guid`; null when it is not in the main list (archived, gone). */
export function resumeCommandFor(ctx: AppContext, guid: string): string | null {
  const at = mainSessions(readRegistry(ctx.paths)).findIndex((session) => session.guid === guid);
  return at < 0 ? null : `claudecm resume ${at + 1}`;
}

/** Say how to resume `guid` later, in one line, when the list has it. */
export function sayWayBack(ctx: AppContext, guid: string): void {
  const command = resumeCommandFor(ctx, guid);
  if (command !== null) ctx.out.line(`  To resume it later: ${command}`);
}
