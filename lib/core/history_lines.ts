/**
 * Claude Code's prompt history (`<claude root>/history.jsonl`, the up-arrow
 * in claude): one JSON line per prompt, `{"display", "pastedContents",
 * "timestamp", "project", "sessionId"}`, where `project` is the folder the
 * prompt was typed in. When that folder moves, the lines of it and of the
 * folders below it name the new path; every other byte stays.
 *
 * @module
 */

import { memberValueSpan, movedEntryKey } from "./claude_json_projects.ts";
import { concatBytes } from "./bytes.ts";
import type { OsName } from "./paths.ts";

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** `bytes` with the `project` of each line under `move.from` moved; how many lines changed. */
export function moveHistoryProjects(
  bytes: Uint8Array,
  move: { from: string; to: string },
  os: OsName,
): { bytes: Uint8Array; changed: number } {
  const parts: Uint8Array[] = [];
  let changed = 0;
  let copiedTo = 0;
  for (let start = 0; start < bytes.length;) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    const line = bytes.subarray(start, end);
    const span = memberValueSpan(line, "project");
    const moved = span === null || line[span.start] !== QUOTE
      ? undefined
      : movedProject(line.subarray(span.start, span.end), move, os);
    // Only a line that is whole JSON is claude's to read: any other stays byte for byte.
    if (span !== null && moved !== undefined && isJsonObject(line)) {
      parts.push(bytes.subarray(copiedTo, start + span.start), encoder.encode(moved));
      copiedTo = start + span.end;
      changed++;
    }
    start = end + 1;
  }
  if (changed === 0) return { bytes, changed };
  parts.push(bytes.subarray(copiedTo));
  return { bytes: concatBytes(parts), changed };
}

/** The JSON string token of the moved folder, or undefined when `token`'s folder stays. */
function movedProject(
  token: Uint8Array,
  move: { from: string; to: string },
  os: OsName,
): string | undefined {
  let project: unknown;
  try {
    project = JSON.parse(decoder.decode(token));
  } catch {
    return undefined;
  }
  if (typeof project !== "string") return undefined;
  const moved = movedEntryKey(project, move, os);
  return moved === undefined || moved === project ? undefined : JSON.stringify(moved);
}

/** Whether `line` parses, whole, as one JSON object (a trailing CR is JSON's whitespace). */
function isJsonObject(line: Uint8Array): boolean {
  try {
    const value = JSON.parse(decoder.decode(line));
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
