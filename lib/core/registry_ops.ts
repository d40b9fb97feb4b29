/**
 * Registry operations. Each takes a registry and returns a new one, leaving
 * malformed and blank lines where they stood, and a changed row keeping its
 * own line ending, so `updateRegistry` can apply them under the lock.
 *
 * Rows change only through these: a flow passes `changeRegistry` a function
 * that composes them on the registry it is given, never a list it read
 * earlier. That function may run again on a fresher registry when another
 * writer got in first (the compare-and-swap of DESIGN.md 13), so it is pure
 * apart from resetting and setting what it reports. A new kind of change (a
 * rewrite of several rows' DIR, say) is a new function here, taking the
 * registry first and its arguments after, throwing
 * {@linkcode RegistryLookupError} for a row that is not there.
 *
 * @module
 */

import { relocateUnder, sameFolder } from "./folder_match.ts";
import type { OsName } from "./paths.ts";
import {
  archivedSessions,
  type Entry,
  findSession,
  mainSessions,
  type Registry,
  type Session,
} from "./registry.ts";

/** Raised when an operation names a session or position that is not there. */
export class RegistryLookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegistryLookupError";
  }
}

/** Add a session as #1. A session already registered under the same guid is replaced. */
export function addAtTop(registry: Registry, session: Session): Registry {
  const without = removeSession(registry, session.guid, { ifPresent: true });
  return { ...without, main: [{ session: { ...session } }, ...without.main] };
}

/**
 * Add sessions below the main list's last row, in the order given (adopt).
 * A guid already registered, main or archived, is left where it is.
 */
export function appendSessions(registry: Registry, sessions: Session[]): Registry {
  const seen = new Set<string>();
  const fresh = sessions.filter((session) => {
    if (seen.has(session.guid) || findSession(registry, session.guid) !== undefined) return false;
    seen.add(session.guid);
    return true;
  });
  if (fresh.length === 0) return registry;
  return {
    ...registry,
    main: [...registry.main, ...fresh.map((session) => ({ session: { ...session } }))],
  };
}

/** Move a main session to #1 (spec 11.9 step 1a). */
export function moveToTop(registry: Registry, guid: string): Registry {
  const index = indexOfGuid(registry.main, guid);
  if (index < 0) throw notFound(guid);
  const main = [...registry.main];
  const [entry] = main.splice(index, 1);
  return { ...registry, main: [entry, ...main] };
}

/** Move a main session to the bottom of the main list (the refreshed predecessor, 11.14). */
export function moveToBottom(registry: Registry, guid: string): Registry {
  const index = indexOfGuid(registry.main, guid);
  if (index < 0) throw notFound(guid);
  const main = [...registry.main];
  const [entry] = main.splice(index, 1);
  return { ...registry, main: [...main, entry] };
}

/** Change a session's description, main or archived. */
export function renameSession(registry: Registry, guid: string, desc: string): Registry {
  return updateSession(registry, guid, (session) => ({ ...session, desc }));
}

/** Change a session's directory. */
export function changeDir(registry: Registry, guid: string, dir: string): Registry {
  return updateSession(registry, guid, (session) => ({ ...session, dir }));
}

/**
 * Point a row at a new transcript (fork, recovery), keeping its place, name and
 * directory. Tokens reset: the old count measured another transcript.
 */
export function swapGuid(registry: Registry, oldGuid: string, newGuid: string): Registry {
  return updateSession(registry, oldGuid, (session) => ({ ...session, guid: newGuid, tokens: "" }));
}

/** Point a row at a trimmed transcript, keeping its tokens (spec 11.13 step 6). */
export function replaceGuid(registry: Registry, oldGuid: string, newGuid: string): Registry {
  return updateSession(registry, oldGuid, (session) => ({ ...session, guid: newGuid }));
}

/** Record a measured token count. */
export function setTokens(registry: Registry, guid: string, tokens: number | string): Registry {
  const text = String(tokens);
  if (text !== "" && !/^\d+$/.test(text)) {
    throw new RegistryLookupError(`'${text}' is not a token count`);
  }
  return updateSession(registry, guid, (session) => ({ ...session, tokens: text }));
}

/** Move a main session to the end of the archived section. */
export function archiveSession(registry: Registry, guid: string): Registry {
  const index = indexOfGuid(registry.main, guid);
  if (index < 0) throw notFound(guid);
  const main = [...registry.main];
  const [entry] = main.splice(index, 1);
  return { ...registry, main, archived: [...registry.archived, entry], hasArchivedMarker: true };
}

/** Move an archived session back to #1 of the main list. */
export function unarchiveSession(registry: Registry, guid: string): Registry {
  const index = indexOfGuid(registry.archived, guid);
  if (index < 0) throw notFound(guid);
  const archived = [...registry.archived];
  const [entry] = archived.splice(index, 1);
  return { ...registry, main: [entry, ...registry.main], archived };
}

/** Remove a session's row, main or archived. */
export function removeSession(
  registry: Registry,
  guid: string,
  options: { ifPresent?: boolean } = {},
): Registry {
  if (!options.ifPresent && findSession(registry, guid) === undefined) throw notFound(guid);
  const keep = (entry: Entry) => !("session" in entry && entry.session.guid === guid);
  return {
    ...registry,
    main: registry.main.filter(keep),
    archived: registry.archived.filter(keep),
  };
}

/**
 * Move main session #`from` to position #`to` (the edit list's `M#,#`), both
 * 1-based positions among main sessions as the menu numbers them.
 */
export function moveSession(registry: Registry, from: number, to: number): Registry {
  const sessions = mainSessions(registry);
  for (const position of [from, to]) {
    if (!Number.isInteger(position) || position < 1 || position > sessions.length) {
      throw new RegistryLookupError(`no session #${position}; the list has ${sessions.length}`);
    }
  }
  const moving = sessions[from - 1];
  const movingEntry = registry.main.find((entry) =>
    "session" in entry && entry.session === moving
  )!;
  const main = registry.main.filter((entry) => entry !== movingEntry);
  const target = sessions.filter((session) => session !== moving)[to - 1];
  const insertAt = target === undefined
    ? main.length
    : main.findIndex((entry) => "session" in entry && entry.session === target);
  main.splice(insertAt, 0, movingEntry);
  return { ...registry, main };
}

/**
 * The description a refreshed predecessor takes (spec 11.14 step 10): its
 * base name plus `(old)`, or `(old N)` with the lowest N not already used by a
 * session of the same base name in the same directory.
 */
export function oldLabelFor(
  registry: Registry,
  guid: string,
  options: { os: OsName },
): string {
  const session = findSession(registry, guid);
  if (session === undefined) throw notFound(guid);
  const base = stripOldSuffix(session.desc);
  const used = new Set<number>();
  for (const other of [...mainSessions(registry), ...archivedSessions(registry)]) {
    if (other.guid === guid || !sameFolder(other.dir, session.dir, options.os)) continue;
    if (stripOldSuffix(other.desc) !== base) continue;
    const number = oldNumber(other.desc);
    if (number !== undefined) used.add(number);
  }
  let next = 1;
  while (used.has(next)) next++;
  return next === 1 ? `${base} (old)` : `${base} (old ${next})`;
}

const OLD_SUFFIX = /\s*\(old(?: (\d+))?\)$/;

function stripOldSuffix(desc: string): string {
  return desc.replace(OLD_SUFFIX, "");
}

function oldNumber(desc: string): number | undefined {
  const match = OLD_SUFFIX.exec(desc);
  if (match === null) return undefined;
  return match[1] === undefined ? 1 : Number(match[1]);
}

function updateSession(
  registry: Registry,
  guid: string,
  change: (session: Session) => Session,
): Registry {
  if (findSession(registry, guid) === undefined) throw notFound(guid);
  const apply = (entry: Entry): Entry =>
    "session" in entry && entry.session.guid === guid
      ? { ...entry, session: change(entry.session) }
      : entry;
  return { ...registry, main: registry.main.map(apply), archived: registry.archived.map(apply) };
}

function indexOfGuid(entries: Entry[], guid: string): number {
  return entries.findIndex((entry) => "session" in entry && entry.session.guid === guid);
}

function notFound(guid: string): RegistryLookupError {
  return new RegistryLookupError(`no registered session ${guid}`);
}

/**
 * `claudecm move`: every row, main or archived, whose DIR is `from` or below
 * it gets `to` (or the same place below `to`); other lines are untouched.
 */
export function rewriteDirPrefix(
  registry: Registry,
  move: { from: string; to: string; os: OsName },
): Registry {
  const apply = (entry: Entry): Entry => {
    if (!("session" in entry)) return entry;
    const dir = relocateUnder(entry.session.dir, move, move.os);
    return dir === undefined || dir === entry.session.dir
      ? entry
      : { ...entry, session: { ...entry.session, dir } };
  };
  return { ...registry, main: registry.main.map(apply), archived: registry.archived.map(apply) };
}
