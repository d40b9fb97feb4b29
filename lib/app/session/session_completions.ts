/**
 * What shell completions offer for a session argument (issue 33.5): each
 * session's list number and name, `N<TAB>name` a line. It runs at every
 * Tab press, so it reads the list without the lock (spec 14.1: a reader sees
 * one whole file or the other), writes nothing, and needs no context.
 *
 * @module
 */

import { type OsName, resolvePaths } from "../../core/paths.ts";
import { mainSessions } from "../../core/registry.ts";
import { cleanName } from "../../core/safe_text.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** `1<TAB>weekly notes\n2<TAB>...`, or "" when there is no list (or it cannot be read). */
export function sessionCompletions(env: Record<string, string>, os: OsName): string {
  try {
    const paths = resolvePaths((name) => env[name], os);
    return mainSessions(readRegistry(paths))
      .map((session, at) => `${at + 1}\t${cleanName(session.desc)}\n`).join("");
  } catch {
    // A Tab press is no place for an error message: nothing to offer.
    return "";
  }
}
