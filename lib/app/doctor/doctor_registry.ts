/**
 * doctor's registry checks: lines of `sessions.txt` that do not parse,
 * registered sessions whose transcript is gone, and registered folders that
 * no longer exist. A session whose claude is running but has no transcript
 * yet is not missing: the transcript appears with the first message, after
 * claudecm registered the session (DESIGN.md 4 and 5.1).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { AddFinding, CheckStatus, Section } from "./doctor_model.ts";
import { isFile, isFolderGone, readFailure } from "../../core/fs_checks.ts";
import { liveSessionIds } from "../../platform/live_sessions.ts";
import {
  archivedSessions,
  mainSessions,
  malformedLines,
  type Registry,
  sessionIdOfMalformed,
} from "../../core/registry.ts";
import { findVaultEntries } from "../../core/session_copies.ts";
import { BROKEN_LINK, createSessionInfoCache, getSessionInfo } from "../../core/session_info.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** A registered session, as the list numbers it. */
export interface SessionRef {
  /** 1-based, within the main list or within the archived list. */
  number: number;
  archived: boolean;
  guid: string;
  desc: string;
}

/** A registered session whose transcript is not on disk. */
export interface MissingTranscript extends SessionRef {
  dir: string;
  transcript: string;
}

/** A registered session whose transcript could not be looked for (permission, I/O). */
export interface UnreadableTranscript extends MissingTranscript {
  /** What could not be read and why, e.g. `permission denied: /path`. */
  problem: string;
}

/** A line of `sessions.txt` that does not parse, and what the vault does for the session it names. */
export interface MalformedLineCheck {
  lineNumber: number;
  text: string;
  reason: string;
  /** The session the line begins with; null when it names none. */
  sessionId: string | null;
  /** Whether the vault holds that session's transcript (it keeps it: issue 30 item 13). */
  vaulted: boolean | null;
}

/** The registry's health. */
export interface RegistryCheck {
  status: CheckStatus;
  path: string;
  /** Null when it cannot be told (no permission to look into its folder). */
  exists: boolean | null;
  /** Why the file could not be read; null when it could (or does not exist). */
  error: string | null;
  /** Main sessions. */
  sessions: number;
  archived: number;
  malformedLines: MalformedLineCheck[];
  missingTranscripts: MissingTranscript[];
  /** Transcripts that may be there but could not be read: not missing, never offered for deletion. */
  unreadableTranscripts: UnreadableTranscript[];
  /** Running sessions that have no transcript yet (no message sent): not a finding. */
  runningWithoutTranscript: MissingTranscript[];
  /** Registered folders that are gone, with the sessions registered in each and the fix. */
  missingDirs: Array<{ dir: string; sessions: SessionRef[]; moveCommand: string }>;
}

/** Check the registry, adding a finding (registry, transcripts, folders) for each kind of trouble. */
export function checkRegistry(
  ctx: AppContext,
  add: (section: Section) => AddFinding,
): RegistryCheck {
  const path = ctx.paths.registryFile;
  const check: RegistryCheck = {
    status: "ok",
    path,
    exists: existence(path),
    error: null,
    sessions: 0,
    archived: 0,
    malformedLines: [],
    missingTranscripts: [],
    unreadableTranscripts: [],
    runningWithoutTranscript: [],
    missingDirs: [],
  };
  let registry: Registry;
  try {
    registry = readRegistry(ctx.paths);
  } catch (error) {
    check.error = readFailure(path, error);
    add("registry")("problem", check.error);
    return check;
  }
  const refs = [
    ...mainSessions(registry).map((session, i) => ({ session, number: i + 1, archived: false })),
    ...archivedSessions(registry).map((session, i) => ({ session, number: i + 1, archived: true })),
  ];
  check.sessions = refs.filter((ref) => !ref.archived).length;
  check.archived = refs.length - check.sessions;
  check.malformedLines = malformedLines(registry).map((line) => {
    const sessionId = sessionIdOfMalformed(line);
    return {
      lineNumber: line.lineNumber,
      text: line.raw,
      reason: line.reason,
      sessionId,
      vaulted: sessionId === null ? null : vaultHolds(ctx, sessionId),
    };
  });
  const running = liveSessionIds(ctx.paths);
  const now = ctx.now();
  const cache = createSessionInfoCache();
  const dirs = new Map<string, SessionRef[]>();
  for (const { session, number, archived } of refs) {
    const ref: SessionRef = { number, archived, guid: session.guid, desc: session.desc };
    dirs.set(session.dir, [...dirs.get(session.dir) ?? [], ref]);
    const live = running.has(session.guid);
    const info = getSessionInfo(ctx.paths, session, { now, cache, live });
    if (info.status === "ok") continue;
    const missing = { ...ref, dir: session.dir, transcript: info.transcriptPath };
    // A link to nothing is a missing transcript (issue 30 item 6): resuming it offers the vault's.
    if (info.status === "unreadable" && info.size !== BROKEN_LINK) {
      check.unreadableTranscripts.push({ ...missing, problem: info.problem ?? "" });
    } else if (info.status === "new") check.runningWithoutTranscript.push(missing);
    else check.missingTranscripts.push(missing);
  }
  check.missingDirs = [...dirs].filter(([dir]) => isFolderGone(dir))
    .map(([dir, sessions]) => ({ dir, sessions, moveCommand: moveCommandFor(dir) }));
  addFindings(check, add);
  return check;
}

/** Whether a vault entry holds session `guid`'s transcript; false where the vault cannot be read. */
function vaultHolds(ctx: AppContext, guid: string): boolean {
  try {
    return findVaultEntries(ctx.paths, guid).some((entry) => isFile(entry.transcript));
  } catch {
    return false;
  }
}

function addFindings(check: RegistryCheck, add: (section: Section) => AddFinding): void {
  const lines = check.malformedLines.length;
  if (lines > 0) {
    add("registry")(
      "problem",
      `${plural(lines, "line")} of ${check.path} cannot be parsed: edit the file to fix or ` +
        "delete each (claudecm skips such lines and keeps them as they are)",
    );
  }
  const transcripts = check.missingTranscripts.length;
  if (transcripts > 0) {
    add("transcripts")(
      "warning",
      `${plural(transcripts, "registered session")} ${transcripts === 1 ? "has" : "have"} no ` +
        "transcript anywhere under the projects folder (deleted): resuming one offers the " +
        "vault's copy if it has one, else a fresh session or a recovery prompt in its folder; " +
        "D# in the edit list removes it from the list",
    );
  }
  const unreadable = check.unreadableTranscripts.length;
  if (unreadable > 0) {
    add("transcripts")(
      "problem",
      `${unreadable === 1 ? "the transcript" : "the transcripts"} of ` +
        `${plural(unreadable, "registered session")} cannot be read ` +
        `(${check.unreadableTranscripts[0].problem}): fix the permissions; ` +
        "claudecm treats them as present, not missing",
    );
  }
  const dirs = check.missingDirs.length;
  if (dirs > 0) {
    add("folders")(
      "warning",
      `${plural(dirs, "registered folder")} no longer ${dirs === 1 ? "exists" : "exist"}: ` +
        "if it was moved or renamed, run the claudecm move line shown with its new path",
    );
  }
}

/** The command that makes a gone folder's sessions follow it; NEW is for the user to fill in. */
function moveCommandFor(dir: string): string {
  return `claudecm move ${shellWord(dir)} <NEW>`;
}

function shellWord(text: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Whether something stands at `path`; null when looking fails for another reason than absence. */
function existence(path: string): boolean | null {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? false : null;
  }
}
