/**
 * The row a command line names for export and tree: its number in the list,
 * its session id, or its exact saved name; an id no row has is no row (the
 * command may still find the session on disk). Until the one resolver
 * (lib/app/session/resolve_session.ts, issue 33.3) lands.
 *
 * @module
 */

import { ExitCode, UserError } from "../../core/errors.ts";
import {
  archivedSessions,
  canonicalSessionId,
  findSession,
  isSessionId,
  mainSessions,
  type Registry,
  type Session,
} from "../../core/registry.ts";

/** The row `ref` names: #N of the list, an id (any row, or none), or exactly one saved name. */
export function sessionForRef(registry: Registry, ref: string): Session | undefined {
  if (/^\d+$/.test(ref)) {
    const sessions = mainSessions(registry);
    const session = sessions[Number(ref) - 1];
    if (session === undefined) {
      throw new UserError(
        `no session #${ref}: the list has ${sessions.length}`,
        ExitCode.notFound,
      );
    }
    return session;
  }
  if (isSessionId(ref)) return findSession(registry, canonicalSessionId(ref));
  const named = [...mainSessions(registry), ...archivedSessions(registry)].filter((s) =>
    s.desc === ref
  );
  if (named.length === 1) return named[0];
  if (named.length > 1) {
    throw new UserError(
      `${named.length} saved sessions are named '${ref}'; give its number or its id`,
      ExitCode.usage,
    );
  }
  throw new UserError(
    `'${ref}' is not a list number, a session id or a saved session's name`,
    ExitCode.notFound,
  );
}
