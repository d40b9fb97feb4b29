/**
 * A session a read-only command may find on disk without a row (`export`,
 * `tree`): a whole session id is taken as it is, registered or not; anything
 * else (a list number, a saved name, an id prefix) goes to the one resolver.
 *
 * @module
 */

import { ExitCode } from "../../core/errors.ts";
import {
  canonicalSessionId,
  findSession,
  isSessionId,
  type Registry,
  type Session,
} from "../../core/registry.ts";
import type { AppContext } from "../context.ts";
import { resolveSession } from "./resolve_session.ts";

/** The session id `ref` names, and its row when it has one. */
export function resolveSessionOrId(
  ctx: AppContext,
  ref: string,
  registry: Registry,
): { guid: string; session?: Session } {
  const id = canonicalSessionId(ref.trim());
  if (isSessionId(id)) return { guid: id, session: findSession(registry, id) };
  const { session } = resolveSession(ctx, ref, { registry, notFoundCode: ExitCode.notFound });
  return { guid: session.guid, session };
}
