/**
 * Numbers that cannot betray (issue 33.3): list numbers are positions, and
 * a session that ends in another window moves to #1, so `resume 4` typed a
 * minute after reading "4. weekly notes" may name another session. What
 * each terminal was last shown (number to session id) is kept in
 * `~/.claudecm/shown/`, and the resolver compares a typed number with it.
 *
 * A terminal is the shell claudecm runs under: its parent process (with its
 * start time on Linux, so a reused pid is another shell). A change this
 * terminal's own command made (a resume moving its session to #1, a delete)
 * is the user's own doing and updates what it was shown; only another
 * window's change makes a number ask. Remembering is best effort: a list
 * is never refused because it could not be noted.
 *
 * @module
 */

import type { AppContext } from "./context.ts";
import { processStart } from "../platform/processes.ts";
import { mainSessions, type Registry } from "../core/registry.ts";
import { writeFileAtomic } from "../store/atomic_write.ts";

/** What a terminal was shown: each list number with its session id. */
interface ShownList {
  shell: number;
  shellStart: string | null;
  rows: Array<[number, string]>;
}

/** Records of shells gone this long are swept when another is written. */
const STALE_MS = 7 * 24 * 3600 * 1000;

function shownDir(ctx: AppContext): string {
  return ctx.paths.path.join(ctx.paths.cmHome, "shown");
}

function recordPath(ctx: AppContext): string {
  return ctx.paths.path.join(shownDir(ctx), `terminal-${Deno.ppid}.json`);
}

/** Note that this terminal was just shown these numbers and sessions. */
export function rememberShown(ctx: AppContext, rows: Array<[number, string]>): void {
  const record: ShownList = { shell: Deno.ppid, shellStart: processStart(Deno.ppid), rows };
  try {
    Deno.mkdirSync(shownDir(ctx), { recursive: true });
    writeFileAtomic(recordPath(ctx), `${JSON.stringify(record)}\n`);
    sweepStale(ctx);
  } catch {
    // Best effort: the list was shown; a number typed later is just not checked.
  }
}

/** The session id this terminal was last shown as #`number`, or null when it was shown none. */
export function shownAs(ctx: AppContext, number: number): string | null {
  return readRecord(ctx)?.rows.find(([shown]) => shown === number)?.[1] ?? null;
}

/**
 * After this terminal's own command changed the list: what it was shown
 * follows, so only another window's change makes a number ask.
 */
export function followOwnChange(ctx: AppContext, registry: Registry): void {
  if (readRecord(ctx) === null) return;
  rememberShown(ctx, mainSessions(registry).map((session, at) => [at + 1, session.guid]));
}

function readRecord(ctx: AppContext): ShownList | null {
  let record: ShownList;
  try {
    record = JSON.parse(Deno.readTextFileSync(recordPath(ctx)));
  } catch {
    return null;
  }
  if (!Array.isArray(record?.rows)) return null;
  // Another shell that was given the same pid was shown nothing.
  const start = processStart(Deno.ppid);
  if (record.shellStart !== null && start !== null && record.shellStart !== start) return null;
  return record;
}

function sweepStale(ctx: AppContext): void {
  const now = Date.now();
  for (const entry of Deno.readDirSync(shownDir(ctx))) {
    const path = ctx.paths.path.join(shownDir(ctx), entry.name);
    const mtime = Deno.statSync(path).mtime?.getTime() ?? now;
    if (entry.isFile && now - mtime > STALE_MS) Deno.removeSync(path);
  }
}
