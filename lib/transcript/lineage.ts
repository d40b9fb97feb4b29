/**
 * Claude Code's own records of where a session came from and where it went
 * (2.1.332, from its bundle; tests/real_claude_lineage_contract_test.ts pins
 * each shape):
 *
 * - `/branch` copies the conversation into a new session and stamps every
 *   copied line with `"forkedFrom": {"sessionId", "messageUuid"}`: the
 *   session it was copied from and the uuid the line had there.
 * - A session continued in another (a background hand-off) gets a
 *   `{"type": "continued-in", "sessionId", "continuedInSessionId"}` line.
 * - A subagent that forks its parent's context writes a
 *   `{"type": "fork-context-ref", "agentId", "parentSessionId",
 *   "parentLastUuid", "contextLength"}` line into its own transcript
 *   (`<session>/subagents/agent-<id>.jsonl`).
 *
 * `--fork-session` writes none of these: its copy is found by the message
 * uuids it shares with its source (lib/core/session_files.ts).
 *
 * The records are read from the raw bytes (a `/branch` copy stamps every line,
 * some of them megabytes of tool output): only a line that names one of the
 * three is looked into, and only its own top-level keys. A file can be read
 * on from where an earlier read stopped (`scanLineage`), and the two parts'
 * records joined (`mergeLineage`) into what one read of the whole gives: the
 * tree's cache reads only what claude appended (lib/app/tree/cached_lineage.ts).
 *
 * @module
 */

import { isSessionId } from "../core/registry.ts";
import { join } from "../core/path.ts";
import { isFile, readDirOrEmpty } from "../core/fs_checks.ts";
import { keyBytes } from "./json_bytes.ts";
import { findKey, stringAt } from "./json_read.ts";
import { scanLines } from "./lines.ts";
import { peekString, peekType } from "./scan.ts";

/** What kind of link a {@linkcode LineageRecord} is. */
export type LineageKind = "forked-from" | "continued-in" | "fork-context-ref";

/** One link from the transcript read to another session. */
export interface LineageRecord {
  /**
   * `forked-from`: the lines were copied from `sessionId` by `/branch` (a
   * parent); `continued-in`: the conversation went on in `sessionId` (a
   * successor); `fork-context-ref`: a subagent forked the context of
   * `sessionId` (a parent).
   */
  kind: LineageKind;
  /** The other session. */
  sessionId: string;
  /**
   * Where in the other session the link is: the last message copied
   * (`forked-from`), the parent's last message the subagent saw
   * (`fork-context-ref`); absent for `continued-in`.
   */
  messageUuid?: string;
  /** The subagent that wrote a `fork-context-ref`. */
  agentId?: string;
  /** The 1-based line of the record (for `forked-from`, of the first copied line). */
  line: number;
}

/**
 * Bumped whenever what a line yields changes: the tree's lineage cache
 * (lib/store/lineage_cache.ts) kept by an older reader is then read afresh.
 */
export const LINEAGE_READER = 1;

/** The raw markers a line must hold to be looked into. */
const MARKERS = ['"forkedFrom"', '"continued-in"', '"fork-context-ref"'];
const FORKED_FROM = keyBytes("forkedFrom");
const SESSION_ID = keyBytes("sessionId");
const MESSAGE_UUID = keyBytes("messageUuid");

/** What {@linkcode scanLineage} found, and where a later read of appended bytes starts. */
export interface LineageScan {
  /** The records of the whole lines read (each ended by a newline), merged as in one read. */
  records: LineageRecord[];
  /** The byte just past the last newline read. */
  end: number;
  /** How many whole lines lie before `end`, counting the lines before `start`. */
  lines: number;
  /**
   * The record of a last line with no newline yet (claude may be writing it):
   * shown now, read again whole once the line is complete.
   */
  pending?: LineageRecord;
}

/**
 * The lineage records of the transcript at `path` from byte `start` (a line's
 * first byte; 0 by default), numbering lines after `linesBefore` whole lines.
 * Throws when the file cannot be read.
 */
export function scanLineage(
  path: string,
  { start = 0, linesBefore = 0 }: { start?: number; linesBefore?: number } = {},
): LineageScan {
  const list = lineageList([]);
  let end = start;
  let lines = linesBefore;
  let pending: LineageRecord | undefined;
  scanLines(path, (line) => {
    if (!line.unterminated) {
      // `length` counts a CR before the newline too: every byte of the line, then the newline.
      end += line.length + 1;
      lines++;
    }
    if (line.oversized || !MARKERS.some((marker) => line.latin1.includes(marker))) return;
    const record = recordOf(line, linesBefore + line.number);
    if (record === undefined) return;
    if (line.unterminated) pending = record;
    else list.add(record);
  }, { start });
  return pending === undefined
    ? { records: list.records, end, lines }
    : { records: list.records, end, lines, pending };
}

/**
 * Every lineage record of the transcript at `path`, in the order of the
 * file; a `/branch` copy's stamped lines make one `forked-from` record per
 * source session, holding the last copied message. From byte `start` when
 * given (line numbers then count from there). Throws when the file cannot
 * be read.
 */
export function lineageRecords(path: string, options: { start?: number } = {}): LineageRecord[] {
  const scan = scanLineage(path, { start: options.start });
  return scan.pending === undefined ? scan.records : mergeLineage(scan.records, [scan.pending]);
}

/**
 * The records of a file read in two parts: `earlier`'s (a read up to a line's
 * end) followed by `later`'s (the read from there, its line numbers counted on),
 * exactly as one read of the whole gives them: a `forked-from` source both
 * name stays where `earlier` first had it, with `later`'s last copied message.
 * Neither list is changed.
 */
export function mergeLineage(
  earlier: readonly LineageRecord[],
  later: readonly LineageRecord[],
): LineageRecord[] {
  const list = lineageList(earlier);
  for (const record of later) list.add(record);
  return list.records;
}

/** Records in file order, with one `forked-from` per source session: the one merge rule. */
function lineageList(
  start: readonly LineageRecord[],
): { records: LineageRecord[]; add: (record: LineageRecord) => void } {
  const records = [...start];
  const sources = new Map<string, number>();
  records.forEach((record, at) => {
    if (record.kind === "forked-from" && !sources.has(record.sessionId)) {
      sources.set(record.sessionId, at);
    }
  });
  const add = (record: LineageRecord) => {
    const at = record.kind === "forked-from" ? sources.get(record.sessionId) : undefined;
    if (at === undefined) {
      if (record.kind === "forked-from") sources.set(record.sessionId, records.length);
      records.push(record);
      return;
    }
    // The source's first copied line keeps its place; the last copied message is the latest.
    const { messageUuid: _, ...first } = records[at];
    records[at] = record.messageUuid === undefined
      ? first
      : { ...first, messageUuid: record.messageUuid };
  };
  return { records, add };
}

/**
 * The lineage records of a session's whole history: its transcript and its
 * subagents' transcripts ({@linkcode subagentTranscripts}), where the
 * `fork-context-ref` pointers are. A subagent file that cannot be read is
 * left out; the transcript itself must be readable.
 */
export function sessionLineageRecords(transcriptPath: string): LineageRecord[] {
  const records = lineageRecords(transcriptPath);
  for (const path of subagentTranscripts(transcriptPath)) {
    try {
      records.push(...lineageRecords(path));
    } catch {
      // Gone or unreadable: the session's own transcript still answers.
    }
  }
  return records;
}

/** The subagents' transcripts of the session whose transcript is at `transcriptPath`: `<id>/subagents/*.jsonl`. */
export function subagentTranscripts(transcriptPath: string): string[] {
  const subagents = join(transcriptPath.replace(/\.jsonl$/, ""), "subagents");
  const paths: string[] = [];
  for (const entry of readDirOrEmpty(subagents)) {
    if (!entry.name.endsWith(".jsonl")) continue;
    const path = join(subagents, entry.name);
    if (entry.isFile || (entry.isSymlink && isFile(path))) paths.push(path);
  }
  return paths;
}

/** The sessions the records name as parents (`forked-from`, `fork-context-ref`), other than `self`. */
export function parentSessionIds(records: readonly LineageRecord[], self?: string): string[] {
  const ids = records.filter((r) => r.kind !== "continued-in").map((r) => r.sessionId);
  return [...new Set(ids)].filter((id) => id !== self);
}

/** The last session the records say this one was continued in, if any. */
export function continuedIn(records: readonly LineageRecord[]): string | undefined {
  return records.findLast((r) => r.kind === "continued-in")?.sessionId;
}

function recordOf(
  line: { bytes: Uint8Array; latin1: string },
  number: number,
): LineageRecord | undefined {
  const type = peekType(line);
  if (type === "continued-in") {
    const id = peekString(line, "continuedInSessionId");
    return id !== undefined && isSessionId(id)
      ? { kind: "continued-in", sessionId: id, line: number }
      : undefined;
  }
  if (type === "fork-context-ref") {
    const id = peekString(line, "parentSessionId");
    if (id === undefined || !isSessionId(id)) return undefined;
    const record: LineageRecord = { kind: "fork-context-ref", sessionId: id, line: number };
    const uuid = peekString(line, "parentLastUuid");
    if (uuid !== undefined) record.messageUuid = uuid;
    const agent = peekString(line, "agentId");
    if (agent !== undefined) record.agentId = agent;
    return record;
  }
  const at = findKey(line, 0, FORKED_FROM);
  if (at === -1) return undefined;
  const id = stringAt(line, findKey(line, at, SESSION_ID));
  if (id === undefined || !isSessionId(id)) return undefined;
  const record: LineageRecord = { kind: "forked-from", sessionId: id, line: number };
  const uuid = stringAt(line, findKey(line, at, MESSAGE_UUID));
  if (uuid !== undefined) record.messageUuid = uuid;
  return record;
}
