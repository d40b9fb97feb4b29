/**
 * The `projects` entries of Claude Code's `~/.claude.json` (per-folder trust,
 * allowed tools, MCP choices), read and renamed at the byte level. The file
 * is Claude Code's and can be megabytes: only the key tokens of renamed
 * entries change, every other byte (spacing, key order, escapes) stays.
 *
 * @module
 */

import { relocateUnder } from "./folder_match.ts";
import type { OsName } from "./paths.ts";
import { concatBytes } from "./bytes.ts";

/** One member of the `projects` object: its key and where its key token is. */
export interface ProjectEntry {
  key: string;
  /** Byte offsets of the key token, quotes included. */
  start: number;
  end: number;
}

/** A rename of one entry's key. */
export interface EntryRename {
  from: string;
  to: string;
}

/**
 * The key `key` takes when folder `from` moved to `to`, or undefined when it
 * is not `from` or below it. A key keeps its own separators: Claude Code on
 * Windows may write `C:/Users/...`, and looks entries up the way it wrote them.
 */
export function movedEntryKey(
  key: string,
  move: { from: string; to: string },
  os: OsName,
): string | undefined {
  const moved = relocateUnder(key, move, os);
  if (moved === undefined || os !== "windows" || key.includes("\\")) return moved;
  return moved.replaceAll("\\", "/");
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The members of the top-level `projects` object (the last one, as JSON.parse keeps); none when absent. */
export function projectEntries(bytes: Uint8Array): ProjectEntry[] {
  let found: ProjectEntry[] = [];
  for (const member of objectMembers(bytes, skipSpace(bytes, bomLength(bytes)))) {
    if (member.key === "projects" && bytes[member.valueStart] === 0x7b) {
      found = [...objectMembers(bytes, member.valueStart)].map(({ key, start, end }) => ({
        key,
        start,
        end,
      }));
    }
  }
  return found;
}

/**
 * `bytes` with the `projects` keys renamed as `renames` says (an entry whose
 * key is some rename's `from`); the rest byte for byte.
 */
export function renameProjectEntries(bytes: Uint8Array, renames: EntryRename[]): Uint8Array {
  const targets = new Map(renames.map((rename) => [rename.from, rename.to]));
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const entry of projectEntries(bytes)) {
    const to = targets.get(entry.key);
    if (to === undefined) continue;
    parts.push(bytes.subarray(at, entry.start), encoder.encode(JSON.stringify(to)));
    at = entry.end;
  }
  parts.push(bytes.subarray(at));
  return concatBytes(parts);
}

/**
 * Where the value of the top-level member `key` of the JSON object in
 * `bytes` is (the last one, as JSON.parse keeps), as byte offsets; null when
 * there is none. `bytes` may hold one line of a JSON Lines file.
 */
export function memberValueSpan(
  bytes: Uint8Array,
  key: string,
): { start: number; end: number } | null {
  let found: { start: number; end: number } | null = null;
  for (const member of objectMembers(bytes, skipSpace(bytes, bomLength(bytes)))) {
    if (member.key !== key) continue;
    const end = skipValue(bytes, member.valueStart);
    if (end >= 0) found = { start: member.valueStart, end };
  }
  return found;
}

interface Member extends ProjectEntry {
  valueStart: number;
}

/** The members of the object starting at `open`; stops quietly at anything that is not JSON. */
function* objectMembers(bytes: Uint8Array, open: number): Generator<Member> {
  if (bytes[open] !== 0x7b) return;
  let at = skipSpace(bytes, open + 1);
  while (bytes[at] === QUOTE) {
    const end = stringEnd(bytes, at);
    if (end < 0) return;
    let key: string;
    try {
      key = JSON.parse(decoder.decode(bytes.subarray(at, end)));
    } catch {
      return; // A bad escape: not JSON.
    }
    const colon = skipSpace(bytes, end);
    if (bytes[colon] !== 0x3a) return;
    const valueStart = skipSpace(bytes, colon + 1);
    yield { key, start: at, end, valueStart };
    const valueEnd = skipValue(bytes, valueStart);
    if (valueEnd < 0) return;
    at = skipSpace(bytes, valueEnd);
    if (bytes[at] !== 0x2c) return;
    at = skipSpace(bytes, at + 1);
  }
}

/** The offset after the string token starting at `at`, or -1 when it does not end. */
function stringEnd(bytes: Uint8Array, at: number): number {
  for (let i = at + 1; i < bytes.length; i++) {
    if (bytes[i] === BACKSLASH) i++;
    else if (bytes[i] === QUOTE) return i + 1;
  }
  return -1;
}

/** The offset after the value starting at `at`, or -1 when it does not end. */
function skipValue(bytes: Uint8Array, at: number): number {
  if (bytes[at] === QUOTE) return stringEnd(bytes, at);
  if (bytes[at] !== 0x7b && bytes[at] !== 0x5b) {
    let i = at;
    while (i < bytes.length && !isDelimiter(bytes[i])) i++;
    return i;
  }
  let depth = 0;
  for (let i = at; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = stringEnd(bytes, i) - 1;
      if (i < 0) return -1;
    } else if (byte === 0x7b || byte === 0x5b) depth++;
    else if ((byte === 0x7d || byte === 0x5d) && --depth === 0) return i + 1;
  }
  return -1;
}

function isDelimiter(byte: number): boolean {
  return byte === 0x2c || byte === 0x7d || byte === 0x5d || isSpace(byte);
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && isSpace(bytes[at])) at++;
  return at;
}

function bomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}
