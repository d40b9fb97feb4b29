/**
 * The row changes the menus and the command-line verbs share (issue 33.2):
 * rename (R#, `claudecm rename N NAME`), archive (A#, `claudecm archive N`)
 * and unarchive (U#, `claudecm unarchive N`). Each is made by session id
 * under the registry lock, on the registry as it is then, so another
 * window's change in between is never undone: a row that is no longer
 * where it was shown changes nothing, and the caller says so.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { changeRegistry } from "../registry.ts";
import { archivedSessions, findSession, mainSessions } from "../../core/registry.ts";
import { archiveSession, renameSession, unarchiveSession } from "../../core/registry_ops.ts";

/** Rename session `guid` to `name` (already valid); false when another window removed it first. */
export async function renameRow(ctx: AppContext, guid: string, name: string): Promise<boolean> {
  let found = false;
  await changeRegistry(ctx, (r) => {
    found = findSession(r, guid) !== undefined;
    return found ? renameSession(r, guid, name) : r;
  });
  return found;
}

/** Archive main session `guid`; false when it is no longer in the main list. */
export async function archiveRow(ctx: AppContext, guid: string): Promise<boolean> {
  let found = false;
  await changeRegistry(ctx, (r) => {
    found = mainSessions(r).some((s) => s.guid === guid);
    return found ? archiveSession(r, guid) : r;
  });
  return found;
}

/** Put archived session `guid` back at #1; false when it is no longer archived. */
export async function unarchiveRow(ctx: AppContext, guid: string): Promise<boolean> {
  let found = false;
  await changeRegistry(ctx, (r) => {
    found = archivedSessions(r).some((s) => s.guid === guid);
    return found ? unarchiveSession(r, guid) : r;
  });
  return found;
}
