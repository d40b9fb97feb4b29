/**
 * The session behind a transcript picked from the orphan scan ("Multiple
 * conversation files found"): its own row when the list has it, else a
 * session made up for it, named by its own title, never by the row the scan
 * was run for (issue 18 item 3).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { transcriptTitle } from "../launch/launch_name.ts";
import { findSession, type Session } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** Session `guid`, picked in `dir`'s project folder, and whether it is a registry row. */
export function pickedSession(
  ctx: AppContext,
  { guid, dir }: { guid: string; dir: string },
): { session: Session; registered: boolean } {
  const row = findSession(readRegistry(ctx.paths), guid);
  if (row !== undefined) return { session: row, registered: true };
  const desc = transcriptTitle(ctx, { guid, dir }) ?? guid;
  return { session: { guid, dir, desc, tokens: "" }, registered: false };
}
