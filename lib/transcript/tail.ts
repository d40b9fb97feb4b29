/**
 * What listing and ranking need from a transcript, read from its end only.
 * Claude Code re-appends its metadata lines (titles, last prompt, modes)
 * about every 32 KB (DESIGN.md section 4), so the last 64 KB hold them; the
 * window grows only when no timestamped line fits in it (one huge last line),
 * and past its widest the lines before the window are streamed
 * (long_line.ts), so the last activity is found however long a line is.
 *
 * @module
 */

import { lineStartBefore, readAt, scanTopLevelStrings } from "./long_line.ts";
import { peekString, peekType } from "./scan.ts";

/** The metadata of one transcript, from its tail. */
export interface TailInfo {
  /** The user's title (`custom-title`), the latest one. */
  customTitle?: string;
  /** Claude's generated title (`ai-title`), the latest one. */
  aiTitle?: string;
  lastPrompt?: string;
  mode?: string;
  permissionMode?: string;
  /** Timestamp of the last line that has one: the session's last activity. */
  lastTimestamp?: string;
  gitBranch?: string;
  /** The latest `cwd` a line records. */
  cwd?: string;
  /** The latest `entrypoint` a line records: `cli` typed at, `sdk-cli` a `claude -p` run. */
  entrypoint?: string;
  /** Where `/cd` moved the session last: the latest `relocated` record's `relocatedCwd`. */
  relocatedCwd?: string;
  /** The last complete line carries a timestamp: conversation traffic, not closing metadata. */
  endsInTraffic: boolean;
  /** The last line is half-written. */
  truncated: boolean;
  size: number;
}

/** Options for {@linkcode readTail}. */
export interface TailOptions {
  /** Bytes read from the end first; 64 KiB by default. */
  window?: number;
  /** Largest window tried when no timestamped line fits; 4 MiB by default. */
  maxWindow?: number;
}

const KiB = 1024;
const METADATA_TYPES = new Set([
  "custom-title",
  "ai-title",
  "last-prompt",
  "mode",
  "permission-mode",
  "relocated",
]);
const decoder = new TextDecoder();

/** Read the metadata at the end of the transcript at `path`. */
export function readTail(path: string, options: TailOptions = {}): TailInfo {
  return readFromEnd(path, options, (tail) => {
    const info = tailOf(tail.bytes, tail.partialFirst, tail.size);
    if (info.lastTimestamp !== undefined) return { value: info, enough: true };
    // Even the widest window holds no timestamped line: stream the lines before it.
    if (tail.last && tail.partialFirst) {
      return { value: streamLongLines(tail.file, info, tail), enough: true };
    }
    return { value: info, enough: false };
  });
}

/** One window of bytes from the end of a file. */
export interface TailWindow {
  /** The open file, for a reader that must look before the window (long_line.ts). */
  file: Deno.FsFile;
  /** Where the window starts in the file. */
  start: number;
  bytes: Uint8Array;
  /** The window starts after the file's start, so its first line may be partial. */
  partialFirst: boolean;
  /** The file's size. */
  size: number;
  /** No larger window will follow (the whole file, or the largest window, was read). */
  last: boolean;
}

/**
 * Read the end of `path` in windows growing fourfold (64 KiB to 4 MiB by
 * default) until `read` says a window was enough or no larger one is left;
 * the answer for the last window read is returned.
 */
export function readFromEnd<T>(
  path: string,
  options: TailOptions,
  read: (tail: TailWindow) => { value: T; enough: boolean },
): T {
  const file = Deno.openSync(path, { read: true });
  try {
    const size = file.statSync().size;
    const maxWindow = options.maxWindow ?? 4096 * KiB;
    let window = options.window ?? 64 * KiB;
    while (true) {
      const start = Math.max(0, size - window);
      const last = start === 0 || window >= maxWindow;
      const answer = read({
        file,
        start,
        bytes: readRange(file, start, size),
        partialFirst: start > 0,
        size,
        last,
      });
      if (answer.enough || last) return answer.value;
      window = Math.min(window * 4, maxWindow);
    }
  } finally {
    file.close();
  }
}

/** The first `cwd` recorded in the head of a transcript (where the session started). */
export function readHeadCwd(path: string, bytes = 64 * KiB): string | undefined {
  const file = Deno.openSync(path, { read: true });
  try {
    const head = readRange(file, 0, Math.min(bytes, file.statSync().size));
    for (const line of splitLines(head, false)) {
      const cwd = peekString(line, "cwd");
      if (cwd !== undefined) return cwd;
    }
    return undefined;
  } finally {
    file.close();
  }
}

function tailOf(bytes: Uint8Array, partialFirst: boolean, size: number): TailInfo {
  const info: TailInfo = { endsInTraffic: false, truncated: false, size };
  const lines = splitLines(bytes, partialFirst);
  const terminated = bytes.length > 0 && bytes[bytes.length - 1] === 0x0a;
  let last = true;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (last && !terminated && !parses(line)) {
      // Claude died mid-write: the session was busy, whatever the line was.
      info.truncated = true;
      info.endsInTraffic = true;
      last = false;
      continue;
    }
    const type = peekType(line);
    const timestamp = peekString(line, "timestamp");
    if (last) info.endsInTraffic = timestamp !== undefined;
    last = false;
    if (timestamp !== undefined) info.lastTimestamp ??= timestamp;
    if (type !== undefined && METADATA_TYPES.has(type)) readMetadata(info, type, line);
    if (type === "user" || type === "assistant" || type === "system") {
      info.gitBranch ??= peekString(line, "gitBranch");
      info.cwd ??= peekString(line, "cwd");
      info.entrypoint ??= peekString(line, "entrypoint");
    }
  }
  return info;
}

const LONG_LINE_KEYS = new Set(["timestamp", "type", "gitBranch", "cwd"]);

/**
 * The widest window held no timestamp, so it starts inside a line longer
 * than itself. Stream that line, then the ones before it, until one has a
 * timestamp; the file's last line also decides `endsInTraffic` and
 * `truncated`, as in tailOf.
 */
function streamLongLines(
  file: Deno.FsFile,
  info: TailInfo,
  window: { start: number; bytes: Uint8Array },
): TailInfo {
  const { start, bytes } = window;
  const firstBreak = bytes.indexOf(0x0a);
  let end = firstBreak === -1 ? start + bytes.length : start + firstBreak;
  let isLast = firstBreak === -1 || isBlank(bytes.subarray(firstBreak + 1));
  const terminated = bytes[bytes.length - 1] === 0x0a;
  let searchFrom = start;
  while (true) {
    const lineStart = lineStartBefore(file, searchFrom);
    const scan = scanTopLevelStrings(file, LONG_LINE_KEYS, { start: lineStart, end });
    if (!scan.blank) {
      const halfWritten = isLast && !terminated && !scan.complete;
      if (halfWritten) {
        // As in tailOf: the session was busy, and a half-written line's fields do not count.
        info.truncated = true;
        info.endsInTraffic = true;
      }
      const timestamp = halfWritten ? undefined : scan.values.get("timestamp");
      if (timestamp !== undefined) {
        info.lastTimestamp = timestamp;
        if (isLast) info.endsInTraffic = true;
        const type = scan.values.get("type");
        if (type === "user" || type === "assistant" || type === "system") {
          info.gitBranch ??= scan.values.get("gitBranch");
          info.cwd ??= scan.values.get("cwd");
        }
        return withMetadataBefore(file, info, lineStart);
      }
      isLast = false;
    }
    if (lineStart === 0) return info;
    end = lineStart - 1;
    searchFrom = end;
  }
}

/**
 * `info` with what it lacks taken from the usual window that ends at `end`,
 * where a long line starts: the titles and last prompt claude wrote before
 * the huge paste. What the window after the line held is newer and stays.
 */
function withMetadataBefore(file: Deno.FsFile, info: TailInfo, end: number): TailInfo {
  if (end === 0) return info;
  const start = Math.max(0, end - 64 * KiB);
  const before = tailOf(readRange(file, start, end), start > 0, info.size);
  for (const key of BEFORE_KEYS) info[key] ??= before[key];
  return info;
}

const BEFORE_KEYS = [
  "customTitle",
  "aiTitle",
  "lastPrompt",
  "mode",
  "permissionMode",
  "relocatedCwd",
  "gitBranch",
  "cwd",
  "entrypoint",
] as const;

function isBlank(bytes: Uint8Array): boolean {
  return bytes.every((byte) => byte === 0x0a || byte === 0x0d || byte === 0x20 || byte === 0x09);
}

function readMetadata(info: TailInfo, type: string, line: Uint8Array): void {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(decoder.decode(line));
  } catch {
    return;
  }
  const text = (key: string) => typeof value[key] === "string" ? value[key] as string : undefined;
  if (type === "custom-title") info.customTitle ??= text("customTitle");
  else if (type === "ai-title") info.aiTitle ??= text("aiTitle");
  else if (type === "last-prompt") info.lastPrompt ??= text("lastPrompt");
  else if (type === "mode") info.mode ??= text("mode");
  else if (type === "permission-mode") info.permissionMode ??= text("permissionMode");
  else if (type === "relocated") info.relocatedCwd ??= text("relocatedCwd");
}

function parses(line: Uint8Array): boolean {
  try {
    JSON.parse(decoder.decode(line));
    return true;
  } catch {
    return false;
  }
}

/** Non-blank lines of `bytes` (CR stripped); the first is dropped when it may be partial. */
export function splitLines(bytes: Uint8Array, partialFirst: boolean): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let pos = 0;
  if (partialFirst) {
    const first = bytes.indexOf(0x0a);
    pos = first === -1 ? bytes.length : first + 1;
  }
  while (pos < bytes.length) {
    let end = bytes.indexOf(0x0a, pos);
    if (end === -1) end = bytes.length;
    let stop = end;
    if (stop > pos && bytes[stop - 1] === 0x0d) stop--;
    if (stop > pos) lines.push(bytes.subarray(pos, stop));
    pos = end + 1;
  }
  return lines;
}

function readRange(file: Deno.FsFile, start: number, end: number): Uint8Array {
  return readAt(file, start, new Uint8Array(end - start));
}

/**
 * Whether the transcript ends in a `/exit` command with no answer after it,
 * the tail older claude versions refused to resume (spec 11.6.1 step 3a):
 * the marker in any of its last 10 lines. False when the file is unreadable.
 */
export function endsWithExitCommand(path: string): boolean {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    return false;
  }
  try {
    const size = file.statSync().size;
    const text = decoder.decode(readRange(file, Math.max(0, size - 64 * KiB), size));
    return text.split("\n").filter((line) => line.trim() !== "").slice(-10)
      .some((line) => line.includes("/exit</command-name>"));
  } finally {
    file.close();
  }
}
