/**
 * Step 1 of the contract: find the transcript of the session named by a
 * session id, a transcript path or a session dir, or, with `--last`, the
 * newest session of the folder that is not live (the ranking and
 * exclusions `recover` uses). Never guesses: anything else is
 * session-not-found, with the identifier.
 *
 * @module
 */

import { basename, dirname, join, resolve } from "../../core/path.ts";
import { isFile, notATranscriptFile, probePath } from "../../core/fs_checks.ts";
import { canonicalSessionId, isSessionId } from "../../core/registry.ts";
import { UserError } from "../../core/errors.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { listTranscripts } from "../../transcript/project_dir.ts";
import type { AppContext } from "../context.ts";
import { listCandidates } from "../recover/recover.ts";
import { RecallFailure } from "./failures.ts";
import { resolveSession, SessionRefError } from "../session/resolve_session.ts";

/** Where the transcript came from. */
export interface RecallSource {
  path: string;
  /** The id the file name gives (a session's transcript is `<id>.jsonl`). */
  sessionId?: string;
  how: "session-id" | "transcript-path" | "session-dir" | "last";
  /** For `--last`: the pick and the sessions left out as live. */
  picked?: {
    title: string | null;
    lastActivity: string | null;
    excluded: string[];
    /** Why each transcript of the folder that could not be read was passed over. */
    unreadable: string[];
  };
}

/** Find the transcript `identifier` names; `cwd` is searched first for ids. */
export function locateSession(ctx: AppContext, identifier: string, cwd: string): RecallSource {
  // A list number is a session even where a file of that name happens to be.
  if (/^\d+$/.test(identifier.trim())) return registeredSession(ctx, identifier);
  const asPath = resolve(cwd, identifier);
  const probe = probePath(asPath);
  // A path that cannot be looked at is not "not found" (DESIGN.md 5.11).
  if (probe.kind === "unreadable" && !isSessionId(identifier)) {
    throw new UserError(`cannot read ${asPath}: ${probe.error}`);
  }
  if (probe.kind === "other" && !isSessionId(identifier)) throw notATranscriptFile(asPath);
  if (probe.kind === "file") {
    return { path: asPath, sessionId: idOf(asPath), how: "transcript-path" };
  }
  if (probe.kind === "directory") return sessionDir(asPath, identifier);
  if (isSessionId(identifier)) {
    const guid = canonicalSessionId(identifier);
    const located = locateTranscript(ctx.paths, { guid, dir: cwd });
    if (located.status === "found") {
      return { path: located.path, sessionId: guid, how: "session-id" };
    }
    if (located.status === "unreadable") {
      // Not knowing is not "not found": say what could not be read.
      throw new UserError(
        `cannot look for session ${identifier}: ${located.error}: ${located.path}`,
      );
    }
    throw notFound(
      identifier,
      `no transcript for session ${identifier} under ${ctx.paths.projectsDir}`,
    );
  }
  return registeredSession(ctx, identifier);
}

/**
 * The session the one resolver finds for `identifier` (a list number, a
 * saved name, an id prefix), looked for as by its id, in its row's folder
 * first; what it cannot find is session-not-found, with its words.
 */
function registeredSession(ctx: AppContext, identifier: string): RecallSource {
  let session;
  try {
    session = resolveSession(ctx, identifier).session;
  } catch (error) {
    if (!(error instanceof SessionRefError)) throw error;
    const message = error.reason === "ambiguous" ? error.message : `${error.message}; ` +
      "not a session id, a transcript file or a session folder either";
    throw notFound(identifier, message);
  }
  const located = locateTranscript(ctx.paths, session);
  if (located.status === "found") {
    return { path: located.path, sessionId: session.guid, how: "session-id" };
  }
  if (located.status === "unreadable") {
    throw new UserError(
      `cannot look for session ${identifier}: ${located.error}: ${located.path}`,
    );
  }
  throw notFound(
    identifier,
    `no transcript for session '${session.desc}' (${session.guid}) under ${ctx.paths.projectsDir}`,
  );
}

/** The newest session of `cwd`'s project dir that is not live. */
export function lastSession(ctx: AppContext, cwd: string, exclude?: string[]): RecallSource {
  const list = listCandidates(ctx, { cwd, exclude, limit: 1 });
  const [pick] = list.candidates;
  const unreadable = list.excluded.find((exclusion) => exclusion.reason === "unreadable");
  if (pick === undefined && unreadable !== undefined) {
    throw new UserError(`no session to recall in ${cwd}: ${unreadable.error}`);
  }
  if (pick === undefined) {
    const why = list.projectDir === null
      ? "Claude Code recorded no session"
      : "every session recorded is live or excluded";
    throw notFound(`--last ${cwd}`, `no session to recall in ${cwd}: ${why}`);
  }
  return {
    path: pick.path,
    sessionId: pick.id,
    how: "last",
    picked: {
      title: pick.title,
      lastActivity: pick.lastActivity,
      excluded: list.excluded.map((e) => e.id),
      unreadable: list.excluded.flatMap((e) => e.error === undefined ? [] : [e.error]),
    },
  };
}

/**
 * A session dir: `<project>/<id>/` (subagents, tool results) whose transcript
 * is its sibling `<id>.jsonl`, or a folder holding exactly one transcript.
 */
function sessionDir(dir: string, identifier: string): RecallSource {
  const name = basename(dir);
  if (isSessionId(name)) {
    for (const path of [join(dirname(dir), `${name}.jsonl`), join(dir, `${name}.jsonl`)]) {
      if (isFile(path)) return { path, sessionId: name, how: "session-dir" };
    }
  }
  const transcripts = listTranscripts(dir);
  if (transcripts.length === 1) {
    const [only] = transcripts;
    return { path: only.path, sessionId: idOf(only.path), how: "session-dir" };
  }
  throw notFound(
    identifier,
    transcripts.length === 0
      ? `no session transcript in ${dir}`
      : `${dir} holds ${transcripts.length} transcripts; name one (a session id or a .jsonl path)`,
  );
}

function idOf(path: string): string | undefined {
  const name = basename(path).replace(/\.jsonl$/, "");
  return isSessionId(name) ? name : undefined;
}

function notFound(identifier: string, message: string): RecallFailure {
  return new RecallFailure("session-not-found", message, { identifier });
}
