/**
 * A session a read-only command may find on disk without a row (`export`,
 * `tree`): a whole session id is taken as it is, registered or not; anything
 * else (a list number, a saved name, an id prefix) goes to the one resolver,
 * and an id prefix no row has is looked for among the transcripts on disk
 * (`tree` shows the ids of members the list does not have).
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
import { MIN_ID_PREFIX, resolveSession, SessionRefError } from "./resolve_session.ts";
import { findSessionTranscripts } from "./session_transcripts.ts";

/** The session id `ref` names, and its row when it has one. */
export function resolveSessionOrId(
  ctx: AppContext,
  ref: string,
  registry: Registry,
): { guid: string; session?: Session } {
  const id = canonicalSessionId(ref.trim());
  if (isSessionId(id)) return { guid: id, session: findSession(registry, id) };
  try {
    const { session } = resolveSession(ctx, ref, { registry, notFoundCode: ExitCode.notFound });
    return { guid: session.guid, session };
  } catch (error) {
    if (!(error instanceof SessionRefError) || error.reason !== "not-found") throw error;
    if (id.length < MIN_ID_PREFIX || !/^[0-9a-f-]+$/.test(id)) throw error;
    const onDisk = [...findSessionTranscripts(ctx).keys()].filter((guid) => guid.startsWith(id));
    if (onDisk.length === 0) throw error;
    if (onDisk.length > 1) {
      throw new SessionRefError(
        `the id prefix ${id} names ${onDisk.length} sessions on disk; give more of it`,
        ExitCode.usage,
        "ambiguous",
      );
    }
    return { guid: onDisk[0] };
  }
}
