/**
 * The session registry, `sessions.txt` (spec section 5): one
 * `GUID|DIR|DESC|TOKENS` line a session, main sessions first, then a literal
 * `[archived]` line and the archived ones. Pure model: parse, serialize and
 * the operations flows perform; reading and writing the file is
 * `lib/store/registry_store.ts`.
 *
 * Lines that do not parse are kept verbatim where they stood, so a rewrite
 * never drops what a user (or an older script) wrote; `doctor` reports them.
 *
 * @module
 */

/** A registered session. */
export interface Session {
  guid: string;
  dir: string;
  desc: string;
  /** Last measured preTrimTokens, digits only; empty when never measured. */
  tokens: string;
}

/** A registry line that did not parse, kept verbatim. */
export interface MalformedLine {
  raw: string;
  /** 1-based line number in the file it was read from. */
  lineNumber: number;
  reason: string;
}

/** One line of a registry section. */
export type Entry = { session: Session } | { malformed: MalformedLine };

/** The whole registry, as read from disk. */
export interface Registry {
  main: Entry[];
  archived: Entry[];
  /** Whether the file had an `[archived]` line (kept even with nothing under it). */
  hasArchivedMarker: boolean;
  /** Line ending of the file as read, kept on rewrite. */
  eol: "\n" | "\r\n";
  /** Whether the file began with a UTF-8 byte order mark, kept on rewrite. */
  bom: boolean;
}

/** The literal line that separates main from archived sessions. */
export const ARCHIVED_MARKER = "[archived]";

const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` is a session id in Claude Code's UUID form. */
export function isSessionId(text: string): boolean {
  return GUID_PATTERN.test(text);
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

/** Parse the text of `sessions.txt`. Never throws: bad lines become malformed entries. */
export function parseRegistry(text: string): Registry {
  const registry = emptyRegistry();
  if (text.startsWith("\uFEFF")) {
    registry.bom = true;
    text = text.slice(1);
  }
  if (text.includes("\r\n")) registry.eol = "\r\n";
  let section = registry.main;
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    if (line.trim() === ARCHIVED_MARKER && !registry.hasArchivedMarker) {
      registry.hasArchivedMarker = true;
      section = registry.archived;
      return;
    }
    section.push(parseLine(line, index + 1));
  });
  return registry;
}

/** Serialize a registry to the text of `sessions.txt`. */
export function serializeRegistry(registry: Registry): string {
  const lines = registry.main.map(entryLine);
  if (registry.hasArchivedMarker || registry.archived.length > 0) {
    lines.push(ARCHIVED_MARKER, ...registry.archived.map(entryLine));
  }
  const body = lines.map((line) => line + registry.eol).join("");
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

/** The session with `guid`, main or archived. */
export function findSession(registry: Registry, guid: string): Session | undefined {
  return [...mainSessions(registry), ...archivedSessions(registry)].find((s) => s.guid === guid);
}

/** Raised when a session name cannot be stored in the registry. */
export class InvalidSessionNameError extends Error {
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

function parseLine(line: string, lineNumber: number): Entry {
  const fields = line.split("|");
  const malformed = (reason: string): Entry => ({ malformed: { raw: line, lineNumber, reason } });
  if (fields.length < 3 || fields.length > 4) {
    return malformed(`expected GUID|DIR|DESC|TOKENS, found ${fields.length} field(s)`);
  }
  // DIR and DESC keep their bytes: a path may end in a space. GUID and TOKENS are ours to tidy.
  const [rawGuid, dir, desc, rawTokens = ""] = fields;
  const guid = rawGuid.trim();
  const tokens = rawTokens.trim();
  if (!isSessionId(guid)) return malformed(`'${guid}' is not a session id`);
  if (dir === "") return malformed("the directory is empty");
  if (tokens !== "" && !/^\d+$/.test(tokens)) return malformed(`'${tokens}' is not a token count`);
  return { session: { guid, dir, desc, tokens } };
}

function entryLine(entry: Entry): string {
  if ("malformed" in entry) return entry.malformed.raw;
  const { guid, dir, desc, tokens } = entry.session;
  return `${guid}|${dir}|${desc}|${tokens}`;
}

function sessionsOf(entries: Entry[]): Session[] {
  return entries.flatMap((entry) => "session" in entry ? [entry.session] : []);
}
