/**
 * The ONE way a command line names a registered session (issue 33.3,
 * DESIGN.md decision 22): its number in `claudecm list`, its session id (or
 * an unambiguous prefix of at least 8 characters), or its exact saved name.
 * Every command that takes a session resolves it here, so each refuses the
 * same things with the same words.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { ExitCode, UserError } from "../../core/errors.ts";
import { parseWholeNumber } from "../../core/numbers.ts";
import {
  archivedSessions,
  canonicalSessionId,
  isSessionId,
  mainSessions,
  malformedLineNaming,
  type Registry,
  type Session,
} from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { askYesNo } from "../../ui/prompt.ts";
import { shownAs } from "../shown_list.ts";

/** A session a command line named. */
export interface ResolvedSession {
  session: Session;
  /** Its number: in `claudecm list`, or in the archived view (V) when `archived`. */
  number: number;
  archived: boolean;
}

/** How {@linkcode resolveSession} reads a reference. */
export interface ResolveOptions {
  /**
   * What a plain number counts: the main list (`claudecm list`, the default)
   * or the archived sessions (list mode's V, for `unarchive N`). Ids and
   * names find a session in either.
   */
  numbers?: "main" | "archived";
  /** The registry to look in; read now (without the lock, spec 14.1) when not given. */
  registry?: Registry;
  /** The exit code of "no such session" (default 1; `skeleton` and `recover` use 3). */
  notFoundCode?: number;
  /**
   * What the command does with the session, for the question a number that
   * moved asks ("resume 'weekly notes'? [Y/n]"); "use" by default.
   */
  verb?: string;
}

/** The shortest id prefix taken for a session id: 8 hex digits, the id's first group. */
export const MIN_ID_PREFIX = 8;

/** "No such session" or "ambiguous": a user error other commands may turn into their own failure. */
export class SessionRefError extends UserError {
  constructor(
    message: string,
    exitCode: number,
    readonly reason: "not-found" | "ambiguous" | "moved",
  ) {
    super(message, exitCode);
    this.name = "SessionRefError";
  }
}

/**
 * The registered session `ref` names: a number (`3`), a session id or a
 * prefix of one (`0f3a9c1e`), or an exact saved name (`weekly notes`).
 * Throws a one-line {@linkcode SessionRefError} when nothing matches
 * ("no such session: abc (see claudecm list)") or a name or prefix names
 * more than one ("that name is ambiguous: #3 and #7"). A number this
 * terminal was last shown for another session asks first, in a terminal,
 * and is refused without one ("#4 is now 'fix billing bug' (was 'weekly
 * notes', now #1)").
 */
export function resolveSession(
  ctx: AppContext,
  ref: string,
  options: ResolveOptions = {},
): ResolvedSession {
  const registry = options.registry ?? readRegistry(ctx.paths);
  const notFoundCode = options.notFoundCode ?? ExitCode.failure;
  const rows = numberedRows(registry);
  const text = ref.trim();
  // One id in 43 starts with 8 digits: copied from a path or a log, they name it, not a number.
  const idPrefix = /^\d+$/.test(text) && text.length >= MIN_ID_PREFIX
    ? rows.filter((row) => row.session.guid.startsWith(text))
    : [];
  if (idPrefix.length === 1) return idPrefix[0];
  if (idPrefix.length > 1) throw ambiguous("id prefix", idPrefix);
  if (/^\d+$/.test(text)) {
    const found = byNumber(rows, text, { ...options, notFoundCode });
    return found.archived ? found : unlessMoved(ctx, found, { rows, verb: options.verb ?? "use" });
  }
  const id = canonicalSessionId(text);
  if (isSessionId(id)) {
    const found = rows.filter((row) => row.session.guid === id);
    if (found.length > 0) return found[0];
    const unparsed = malformedLineNaming(registry, id);
    if (unparsed !== undefined) {
      throw new SessionRefError(
        `line ${unparsed.lineNumber} of the session list names ${id} but does not parse ` +
          `(${unparsed.reason}); fix that line (claudecm doctor shows it)`,
        notFoundCode,
        "not-found",
      );
    }
    throw notFound(text, notFoundCode);
  }
  const named = rows.filter((row) => row.session.desc === ref || row.session.desc === text);
  if (named.length === 1) return named[0];
  if (named.length > 1) throw ambiguous("name", named);
  if (id.length >= MIN_ID_PREFIX && /^[0-9a-f-]+$/.test(id)) {
    const prefixed = rows.filter((row) => row.session.guid.startsWith(id));
    if (prefixed.length === 1) return prefixed[0];
    if (prefixed.length > 1) throw ambiguous("id prefix", prefixed);
  }
  throw notFound(text, notFoundCode);
}

/**
 * `found`, unless this terminal was shown another session at its number
 * (another window's change moved the list since): then say so and, in a
 * terminal, ask whether to take the session that was shown; without one,
 * refuse with that line (../shown_list.ts).
 */
function unlessMoved(
  ctx: AppContext,
  found: ResolvedSession,
  { rows, verb }: { rows: ResolvedSession[]; verb: string },
): ResolvedSession {
  const shownGuid = shownAs(ctx, found.number);
  if (shownGuid === null || shownGuid === found.session.guid) return found;
  const shown = rows.find((row) => row.session.guid === shownGuid);
  const now = `#${found.number} is now '${found.session.desc}'`;
  const was = shown === undefined
    ? `${now} (the session shown as #${found.number} is no longer in the list)`
    : `${now} (was '${shown.session.desc}', now ${sessionLabel(shown)})`;
  if (!ctx.interactive) {
    throw new SessionRefError(
      `${was}; name it by its name or id, or see claudecm list`,
      ExitCode.failure,
      "moved",
    );
  }
  ctx.err.line(`  ${was}.`, "yellow");
  const pick = shown ?? found;
  if (
    askYesNo(
      ctx.prompter,
      `  ${verb[0].toUpperCase()}${verb.slice(1)} '${pick.session.desc}'? [${
        shown ? "Y/n" : "y/N"
      }]: `,
      {
        defaultYes: shown !== undefined,
      },
    )
  ) {
    return pick;
  }
  throw new SessionRefError(
    "nothing done: claudecm list shows the numbers as they are now",
    ExitCode.failure,
    "moved",
  );
}

/** `#3`, or `archived #2` for a row of the archived view. */
export function sessionLabel(resolved: ResolvedSession): string {
  return resolved.archived ? `archived #${resolved.number}` : `#${resolved.number}`;
}

/** Every row, main first, with its number in its own view. */
function numberedRows(registry: Registry): ResolvedSession[] {
  return [
    ...mainSessions(registry).map((session, at) => ({ session, number: at + 1, archived: false })),
    ...archivedSessions(registry).map((session, at) => ({
      session,
      number: at + 1,
      archived: true,
    })),
  ];
}

function byNumber(
  rows: ResolvedSession[],
  text: string,
  options: ResolveOptions & { notFoundCode: number },
): ResolvedSession {
  const archived = options.numbers === "archived";
  const view = rows.filter((row) => row.archived === archived);
  const number = parseWholeNumber(text) ?? 0;
  const found = view.find((row) => row.number === number);
  if (found !== undefined) return found;
  const list = archived ? "the archived list" : "the list";
  const why = view.length === 0
    ? (archived ? "no archived sessions" : "no saved sessions")
    : number === 0
    ? `sessions are numbered from 1`
    : `${list} has ${view.length}`;
  throw new SessionRefError(`no session #${text}: ${why}`, options.notFoundCode, "not-found");
}

function notFound(text: string, exitCode: number): SessionRefError {
  return new SessionRefError(
    `no such session: ${text} (see claudecm list)`,
    exitCode,
    "not-found",
  );
}

function ambiguous(what: string, rows: ResolvedSession[]): SessionRefError {
  const labels = rows.map(sessionLabel);
  const named = labels.length === 2
    ? labels.join(" and ")
    : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
  return new SessionRefError(
    `that ${what} is ambiguous: ${named} (use the number)`,
    ExitCode.usage,
    "ambiguous",
  );
}
