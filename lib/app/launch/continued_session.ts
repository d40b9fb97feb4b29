/**
 * What a `claude -c` (or another pass-through that picks the session
 * itself) went on with, told after it exits from what claude's manifest
 * named and what the project folder held before: the session it continued
 * before a `/clear`, or the listed session a fork carried forward. The same
 * rules as after a resume (session/next_session.ts).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { LaunchOutcome } from "./launch.ts";
import { classifyNext, recordedParent } from "../session/next_session.ts";
import { findSession } from "../../core/registry.ts";
import type { FolderSnapshot } from "../../core/session_files.ts";
import { readRegistry } from "../../store/registry_store.ts";

/**
 * The session a `-c` continued (there before the launch: claude's manifest
 * named it first) when claude then went on in a new conversation without its
 * history (a /clear); null otherwise.
 */
export function continuedThenCleared(
  launch: LaunchOutcome,
  { before, folder, passArgs, join }: {
    before: FolderSnapshot;
    folder: string;
    passArgs: string[];
    join: (...parts: string[]) => string;
  },
): { guid: string; cleared: string } | null {
  const first = launch.firstManifestSessionId;
  const last = launch.manifestSessionId;
  if (first === null || last === null || first === last || !before.has(first)) return null;
  const next = classifyNext(last, {
    nextPath: join(folder, `${last}.jsonl`),
    resumedPath: join(folder, `${first}.jsonl`),
    extraArgs: passArgs,
  });
  return next.kind === "cleared" ? { guid: first, cleared: last } : null;
}

/**
 * The listed session that `sessionId`, new in the folder, forked: the
 * newest transcript there before the launch (the one `-c` continues), when
 * `sessionId` carries its history forward (session/next_session.ts). Null for a new
 * conversation, a `--fork-session` or `/branch` branch, or a session the list lacks.
 */
export function forkedFrom(
  ctx: AppContext,
  sessionId: string,
  { before, folder, passArgs }: { before: FolderSnapshot; folder: string; passArgs: string[] },
): string | null {
  if (before.has(sessionId)) return null;
  const join = ctx.paths.path.join;
  const nextPath = join(folder, `${sessionId}.jsonl`);
  // A `/branch` copy (claude stamped it with forkedFrom) is a branch, never the row's fork.
  if (recordedParent(nextPath) !== undefined) return null;
  const newest = [...before].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (newest === undefined || findSession(readRegistry(ctx.paths), newest) === undefined) {
    return null;
  }
  const next = classifyNext(sessionId, {
    nextPath,
    resumedPath: join(folder, `${newest}.jsonl`),
    extraArgs: passArgs,
  });
  return next.kind === "fork" ? newest : null;
}
