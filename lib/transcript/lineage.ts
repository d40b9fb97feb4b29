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
 * three is looked into, and only its own top-level keys.
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

/** The raw markers a line must hold to be looked into. */
const MARKERS = ['"forkedFrom"', '"continued-in"', '"fork-context-ref"'];
const FORKED_FROM = keyBytes("forkedFrom");
const SESSION_ID = keyBytes("sessionId");
const MESSAGE_UUID = keyBytes("messageUuid");

/**
 * Every lineage record of the transcript at `path`, in the order of the
 * file; a `/branch` copy's stamped lines make one `forked-from` record per
 * source session, holding the last copied message. From byte `start` when
 * given (line numbers then count from there). Throws when the file cannot
 * be read.
 */
export function lineageRecords(path: string, options: { start?: number } = {}): LineageRecord[] {
  const records: LineageRecord[] = [];
  const forkedFrom = new Map<string, LineageRecord>();
  scanLines(path, (line) => {
    if (line.oversized || !MARKERS.some((marker) => line.latin1.includes(marker))) return;
    const record = recordOf(line, line.number);
    if (record === undefined) return;
    if (record.kind !== "forked-from") {
      records.push(record);
      return;
    }
    const seen = forkedFrom.get(record.sessionId);
    if (seen === undefined) {
      forkedFrom.set(record.sessionId, record);
      records.push(record);
    } else {
      seen.messageUuid = record.messageUuid;
    }
  }, { start: options.start });
  return records;
}

/**
 * The lineage records of a session's whole history: its transcript and its
 * subagents' transcripts (`<id>/subagents/*.jsonl` beside it), where the
 * `fork-context-ref` pointers are. A subagent file that cannot be read is
 * left out; the transcript itself must be readable.
 */
export function sessionLineageRecords(transcriptPath: string): LineageRecord[] {
  const records = lineageRecords(transcriptPath);
  const subagents = join(transcriptPath.replace(/\.jsonl$/, ""), "subagents");
  for (const entry of readDirOrEmpty(subagents)) {
    if (!entry.name.endsWith(".jsonl")) continue;
    if (!entry.isFile && !(entry.isSymlink && isFile(join(subagents, entry.name)))) continue;
    try {
      records.push(...lineageRecords(join(subagents, entry.name)));
    } catch {
      // Gone or unreadable: the session's own transcript still answers.
    }
  }
  return records;
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
