/**
 * The session registry, `sessions.txt` (spec section 5): one
 * `GUID|DIR|DESC|TOKENS` line a session, main sessions first, then a literal
 * `[archived]` line and the archived ones. Pure model: parse, serialize and
 * the operations flows perform; reading and writing the file is
 * `lib/store/registry_store.ts`.
 *
 * The file's bytes are the user's (DESIGN.md 5.10): lines that do not parse,
 * blank lines, a decorated `[archived]` line and each line's own ending are
 * kept where they stood, and a line no operation changed is written back as
 * it was read, so a rewrite never drops or alters what a user (or an older
 * script) wrote; `doctor` reports the lines that do not parse.
 *
 * @module
 */

import { UserError } from "./errors.ts";

/** A registered session. */
export interface Session {
  guid: string;
  dir: string;
  desc: string;
  /** Last measured preTrimTokens, digits only; empty when never measured. */
  tokens: string;
}

/** A line as it stood in the file: its text and its own ending ("" for a last line without one). */
export interface SourceLine {
  text: string;
  eol: string;
}

/** A registry line that did not parse, kept verbatim. */
export interface MalformedLine {
  raw: string;
  /** 1-based line number in the file it was read from. */
  lineNumber: number;
  reason: string;
}

/**
 * One line of a registry section. A line read from the file keeps its
 * `source`, so it is written back exactly as it was unless its session changed.
 */
export type Entry =
  | { session: Session; source?: SourceLine & { parsed: Session } }
  | { malformed: MalformedLine; source?: SourceLine }
  | { blank: SourceLine };

/** The whole registry, as read from disk. */
export interface Registry {
  main: Entry[];
  archived: Entry[];
  /** Whether the file had an `[archived]` line (kept even with nothing under it). */
  hasArchivedMarker: boolean;
  /** The `[archived]` line as the file had it (it may carry spaces). */
  markerSource?: SourceLine;
  /** Line ending for lines claudecm adds: the one most of the file's lines use. */
  eol: "\n" | "\r\n";
  /** Whether the file began with a UTF-8 byte order mark, kept on rewrite. */
  bom: boolean;
}

/** The literal line that separates main from archived sessions. */
const ARCHIVED_MARKER = "[archived]";

const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` is a session id in Claude Code's UUID form. */
export function isSessionId(text: string): boolean {
  return GUID_PATTERN.test(text);
}

/**
 * A typed or read session id in the form Claude names its files: trimmed, in
 * lower case. An id typed in upper case names the same session, so every
 * place that takes an id from a person, a row or a tool's output goes
 * through this one spelling.
 */
export function canonicalSessionId(text: string): string {
  return text.trim().toLowerCase();
}

const TRANSCRIPT_SUFFIX = ".jsonl";

/**
 * The session id of a transcript file name, `<uuid>.jsonl`; null for any
 * other name. Project folders also hold files that are not sessions (a
 * user's `notes.jsonl`, the `agent-*.jsonl` of old Claude versions), and
 * every scan of a project folder decides with this one test.
 */
export function transcriptSessionId(fileName: string): string | null {
  if (!fileName.endsWith(TRANSCRIPT_SUFFIX)) return null;
  const id = fileName.slice(0, -TRANSCRIPT_SUFFIX.length);
  return isSessionId(id) ? id : null;
}

/** A registry with no sessions. */
export function emptyRegistry(): Registry {
  return { main: [], archived: [], hasArchivedMarker: false, eol: "\n", bom: false };
}

/**
 * Parse the text of `sessions.txt`. Never throws: bad lines become malformed
 * entries, and so does a second row for a session already listed (every
 * operation names a session by its id, so a rename or delete of one row would
 * reach the other). Every line, blank ones included, keeps its text and its
 * own line ending, so {@linkcode serializeRegistry} gives back the same text
 * for every line no operation changed.
 */
export function parseRegistry(text: string): Registry {
  const registry = emptyRegistry();
  let start = 0;
  if (text.startsWith("\uFEFF")) {
    registry.bom = true;
    start = 1;
  }
  // One pass: each line is cut, classified and parsed where it is found.
  let crlf = 0;
  let lf = 0;
  let lineNumber = 0;
  let section = registry.main;
  const firstLineOf = new Map<string, number>();
  while (start < text.length) {
    lineNumber++;
    const newline = text.indexOf("\n", start);
    let source: SourceLine;
    if (newline < 0) {
      source = { text: text.slice(start), eol: "" };
      start = text.length;
    } else if (newline > start && text.charCodeAt(newline - 1) === 13) {
      source = { text: text.slice(start, newline - 1), eol: "\r\n" };
      crlf++;
      start = newline + 1;
    } else {
      source = { text: text.slice(start, newline), eol: "\n" };
      lf++;
      start = newline + 1;
    }
    const trimmed = source.text.trim();
    if (trimmed === "") {
      section.push({ blank: source });
    } else if (trimmed === ARCHIVED_MARKER && !registry.hasArchivedMarker) {
      registry.hasArchivedMarker = true;
      registry.markerSource = source;
      section = registry.archived;
    } else {
      section.push(parseLine(source, lineNumber, firstLineOf));
    }
  }
  if (crlf > lf) registry.eol = "\r\n";
  return registry;
}

/**
 * Serialize a registry to the text of `sessions.txt`. Throws
 * {@linkcode InvalidRegistryFieldError} rather than write a session row that
 * would not read back as the same session.
 */
export function serializeRegistry(registry: Registry): string {
  const lines: Array<SourceLine | string> = registry.main.map(entryLine);
  if (registry.hasArchivedMarker || registry.archived.length > 0) {
    lines.push(registry.markerSource ?? ARCHIVED_MARKER, ...registry.archived.map(entryLine));
  }
  const body = lines.map((line, index) => {
    if (typeof line === "string") return line + registry.eol;
    // A last line without an ending needs one once something follows it.
    const eol = line.eol === "" && index < lines.length - 1 ? registry.eol : line.eol;
    return line.text + eol;
  }).join("");
  return (registry.bom ? "\uFEFF" : "") + body;
}

/** Main sessions in menu order (#1 first). */
export function mainSessions(registry: Registry): Session[] {
  return sessionsOf(registry.main);
}

/** Archived sessions in menu order. */
export function archivedSessions(registry: Registry): Session[] {
  return sessionsOf(registry.archived);
}

/** Every line that did not parse, main section first. */
export function malformedLines(registry: Registry): MalformedLine[] {
  return [...registry.main, ...registry.archived].flatMap((entry) =>
    "malformed" in entry ? [entry.malformed] : []
  );
}

/**
 * Every session id a line of the registry names, parsed or not: each row's,
 * and the id a line that does not parse begins with (a name holding `|`, a
 * second row of one id). What is removed or set aside as "not registered" is
 * decided against this set, never against the parsed rows alone: a line kept
 * as written still names its session.
 */
export function namedSessionIds(registry: Registry): Set<string> {
  const ids = new Set(
    [...mainSessions(registry), ...archivedSessions(registry)].map((s) => s.guid),
  );
  for (const line of malformedLines(registry)) {
    const id = sessionIdOfMalformed(line);
    if (id !== null) ids.add(id);
  }
  return ids;
}

/**
 * The sessions lines that do not parse name, as rows to show beside the
 * parsed ones (the orphan table): the folder as the line has it, and the
 * line's number for a name. They are listed, never "orphans".
 */
export function sessionsOfUnparsedLines(registry: Registry): Session[] {
  return malformedLines(registry).flatMap((line) => {
    const guid = sessionIdOfMalformed(line);
    if (guid === null) return [];
    const dir = line.raw.split("|")[1] ?? "";
    return [{ guid, dir, desc: `line ${line.lineNumber} of sessions.txt`, tokens: "" }];
  });
}

/** The first line that does not parse and names `guid`, if one does. */
export function malformedLineNaming(registry: Registry, guid: string): MalformedLine | undefined {
  return malformedLines(registry).find((line) => sessionIdOfMalformed(line) === guid);
}

/** The session id a line that does not parse begins with; null when it begins with none. */
export function sessionIdOfMalformed(line: MalformedLine): string | null {
  const first = canonicalSessionId(line.raw.split("|")[0]);
  return isSessionId(first) ? first : null;
}

/** The session with `guid`, main or archived. */
export function findSession(registry: Registry, guid: string): Session | undefined {
  return [...mainSessions(registry), ...archivedSessions(registry)].find((s) => s.guid === guid);
}

/** Raised when a value cannot be stored in a registry row (spec 5: `|` and line breaks). */
export class InvalidRegistryFieldError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "InvalidRegistryFieldError";
  }
}

/** Raised when a session name cannot be stored in the registry. */
export class InvalidSessionNameError extends InvalidRegistryFieldError {
  constructor(message: string) {
    super(message);
    this.name = "InvalidSessionNameError";
  }
}

/**
 * Check a session name typed by the user. The registry is pipe-delimited and
 * line-based, so `|` and line breaks would corrupt it.
 */
export function validateSessionName(name: string): string {
  if (name.includes("|")) {
    throw new InvalidSessionNameError(`a session name cannot contain '|': ${name}`);
  }
  if (/[\r\n]/.test(name)) {
    throw new InvalidSessionNameError("a session name cannot contain a line break");
  }
  return name;
}

/**
 * Check a project folder before anything is written for it: a row's DIR is
 * one pipe-delimited field on one line, so a path with `|` or a line break
 * cannot be registered.
 */
export function validateSessionDir(dir: string): string {
  const problem = storableProblem(dir);
  if (problem !== null) {
    throw new InvalidRegistryFieldError(
      `cannot use the folder ${JSON.stringify(dir)}: its path ${problem}, which sessions.txt ` +
        "cannot store; rename the folder (or use one without '|' and line breaks)",
    );
  }
  return dir;
}

/** Why `value` cannot be one field of a registry row, or null when it can. */
function storableProblem(value: string): string | null {
  if (value.includes("|")) return "contains '|'";
  if (/[\r\n]/.test(value)) return "contains a line break";
  return null;
}

/** One line's entry; `firstLineOf` holds the line each session id was first seen on. */
function parseLine(
  source: SourceLine,
  lineNumber: number,
  firstLineOf: Map<string, number>,
): Entry {
  const parsed = parseSessionRow(source.text);
  const malformed = (reason: string): Entry => ({
    malformed: { raw: source.text, lineNumber, reason },
    source,
  });
  if ("reason" in parsed) return malformed(parsed.reason);
  const first = firstLineOf.get(parsed.guid);
  if (first !== undefined) return malformed(`session ${parsed.guid} is already on line ${first}`);
  firstLineOf.set(parsed.guid, lineNumber);
  return { session: { ...parsed }, source: { text: source.text, eol: source.eol, parsed } };
}

function parseSessionRow(line: string): Session | { reason: string } {
  const fields = line.split("|");
  if (fields.length < 3 || fields.length > 4) {
    return { reason: `expected GUID|DIR|DESC|TOKENS, found ${fields.length} field(s)` };
  }
  // DIR and DESC keep their bytes: a path may end in a space. GUID and TOKENS are ours to tidy.
  const [rawGuid, dir, desc, rawTokens = ""] = fields;
  const guid = canonicalSessionId(rawGuid);
  const tokens = rawTokens.trim();
  if (!isSessionId(guid)) return { reason: `'${guid}' is not a session id` };
  if (dir === "") return { reason: "the directory is empty" };
  if (tokens !== "" && !/^\d+$/.test(tokens)) return { reason: `'${tokens}' is not a token count` };
  return { guid, dir, desc, tokens };
}

/** An entry's line: as it was read when unchanged, else formatted (keeping its own ending). */
function entryLine(entry: Entry): SourceLine | string {
  if ("blank" in entry) return entry.blank;
  if ("malformed" in entry) return entry.source ?? entry.malformed.raw;
  const { session, source } = entry;
  if (source !== undefined && sameSession(session, source.parsed)) return source;
  const text = sessionRow(session);
  return source === undefined ? text : { text, eol: source.eol };
}

/** The row for `session`; throws when it would not parse back as the same session. */
function sessionRow(session: Session): string {
  const { guid, dir, desc, tokens } = session;
  const text = `${guid}|${dir}|${desc}|${tokens}`;
  // Only LF ends a line on read; a lone CR inside a field reads back as it was.
  const parsed = text.includes("\n")
    ? { reason: "it contains a line break" }
    : parseSessionRow(text);
  if ("reason" in parsed || !sameSession(parsed, session)) {
    throw new InvalidRegistryFieldError(
      `cannot save session ${guid} in sessions.txt: ${describeRowProblem(session)}`,
    );
  }
  return text;
}

function describeRowProblem(session: Session): string {
  for (const [field, value] of [["folder", session.dir], ["name", session.desc]] as const) {
    const problem = storableProblem(value);
    if (problem !== null) return `its ${field} ${problem}: ${JSON.stringify(value)}`;
  }
  return `the row would not read back (${JSON.stringify(session)})`;
}

function sameSession(a: Session, b: Session): boolean {
  return a.guid === b.guid && a.dir === b.dir && a.desc === b.desc && a.tokens === b.tokens;
}

function sessionsOf(entries: Entry[]): Session[] {
  return entries.flatMap((entry) => "session" in entry ? [entry.session] : []);
}
