/**
 * What listing and ranking need from a transcript, read from its end only.
 * Claude Code re-appends its metadata lines (titles, last prompt, modes)
 * about every 32 KB (DESIGN.md section 4), so the last 64 KB hold them; the
 * window grows only when no timestamped line fits in it (one huge last line).
 *
 * @module
 */

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
]);
const decoder = new TextDecoder();

/** Read the metadata at the end of the transcript at `path`. */
export function readTail(path: string, options: TailOptions = {}): TailInfo {
  return readFromEnd(path, options, (tail) => {
    const info = tailOf(tail.bytes, tail.partialFirst, tail.size);
    return { value: info, enough: info.lastTimestamp !== undefined };
  });
}

/** One window of bytes from the end of a file. */
export interface TailWindow {
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
    }
  }
  return info;
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
  const bytes = new Uint8Array(end - start);
  file.seekSync(start, Deno.SeekMode.Start);
  let got = 0;
  while (got < bytes.length) {
    const count = file.readSync(bytes.subarray(got));
    if (count === null || count === 0) break;
    got += count;
  }
  return bytes.subarray(0, got);
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
