/**
 * What shell completions offer for a session argument (issue 33.5): each
 * session's list number and name, `N<TAB>name` a line. It runs at every
 * Tab press, so it reads the list without the lock (spec 14.1: a reader sees
 * one whole file or the other), writes nothing, and needs no context.
 *
 * @module
 */

import { type OsName, resolvePaths } from "../../core/paths.ts";
import { archivedSessions, mainSessions } from "../../core/registry.ts";
import { cleanName } from "../../core/safe_text.ts";
import { readRegistry } from "../../store/registry_store.ts";

/**
 * `1<TAB>weekly notes\n2<TAB>...` for the main list, or the archived list's
 * (its own numbers, as `unarchive` takes them); "" when there is no list
 * (or it cannot be read).
 */
export function sessionCompletions(
  env: Record<string, string>,
  os: OsName,
  { list = "main" }: { list?: "main" | "archived" } = {},
): string {
  try {
    const paths = resolvePaths((name) => env[name], os);
    const registry = readRegistry(paths);
    return (list === "archived" ? archivedSessions(registry) : mainSessions(registry))
      .map((session, at) => `${at + 1}\t${cleanName(session.desc)}\n`).join("");
  } catch {
    // A Tab press is no place for an error message: nothing to offer.
    return "";
  }
}
