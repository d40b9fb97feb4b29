/**
 * Split a file into lines with bounded memory, whatever its size. The file is
 * read in chunks into one buffer; each line is handed out as a view of it (no
 * copy). A line cut by the end of the buffer is moved to its front before the
 * next read. A line that fills the whole buffer is measured first (read ahead
 * to its newline) and then read into one buffer of its exact size, so a
 * multi-megabyte line costs its own size once, not a chain of doubled buffers
 * and per-read copies that outlive it. Lines longer than `maxLineBytes` are
 * reported as oversized with their first bytes only, so one runaway line
 * cannot exhaust memory. Newlines are found in a latin1 copy of each read
 * (see latin1.ts), which every line also gets as a slice, for the peeks'
 * native searches; a read's copy starts at the line it continues, so no line
 * is copied to latin1 twice.
 *
 * @module
 */

import { toLatin1 } from "./latin1.ts";

/** One line of a file, valid only during the callback that receives it. */
export interface RawLine {
  /** 1-based line number. */
  number: number;
  /** The line without its newline or a trailing CR (a view: copy it to keep it). */
  bytes: Uint8Array;
  /** The same bytes as a latin1 string (one character per byte), not the decoded text. */
  latin1: string;
  /** Length of the whole line in bytes, even when `bytes` holds only its start. */
  length: number;
  /** The last line of a file that does not end with a newline. */
  unterminated: boolean;
  /** The line was longer than `maxLineBytes`: `bytes` holds only its first part. */
  oversized: boolean;
}

/** Options for {@linkcode scanLines}. */
export interface ScanLinesOptions {
  /** Bytes read per system call; 120 KiB by default (`CHUNK_BYTES` says why). */
  chunkSize?: number;
  /** Longest line kept whole; longer ones are cut to `oversizedPrefix`. 16 MiB by default. */
  maxLineBytes?: number;
  /** How much of an oversized line is kept; 64 KiB by default. */
  oversizedPrefix?: number;
  /** Byte offset to start at (the first line may then be partial). */
  start?: number;
}

/** What a scan went through. */
export interface ScanSummary {
  lines: number;
  bytes: number;
}

/** Return `false` from the visitor to stop the scan early. */
export type LineVisitor = (line: RawLine) => boolean | void;

const CR = 0x0d;
const NO_BYTES = new Uint8Array(0);
const MiB = 1024 * 1024;
/**
 * Each chunk read becomes a latin1 string. Under V8's largest regular object
 * (128 KiB) it is collected with the young generation; larger ones wait in
 * the large-object space for a full GC, which cost up to 40 MiB of peak
 * memory on a 100 MB transcript (1 MiB chunks: 125 MiB for the digest,
 * 120 KiB: 85 MiB) for no measurable speed.
 */
export const CHUNK_BYTES = 120 * 1024;

/** Read `path` line by line, calling `visit` for each line, including empty ones. */
export function scanLines(
  path: string,
  visit: LineVisitor,
  options: ScanLinesOptions = {},
): ScanSummary {
  const file = Deno.openSync(path, { read: true });
  try {
    if (options.start) file.seekSync(options.start, Deno.SeekMode.Start);
    return scanFile(file, visit, options);
  } finally {
    file.close();
  }
}

/** {@linkcode scanLines} over an already open file, from its current position. */
function scanFile(
  file: Deno.FsFile,
  visit: LineVisitor,
  options: ScanLinesOptions = {},
): ScanSummary {
  const chunkSize = options.chunkSize ?? CHUNK_BYTES;
  const limits = {
    max: options.maxLineBytes ?? 16 * MiB,
    prefix: options.oversizedPrefix ?? 64 * 1024,
  };
  const line: RawLine = {
    number: 0,
    bytes: NO_BYTES,
    latin1: "",
    length: 0,
    unterminated: false,
    oversized: false,
  };
  const emit = (
    view: Uint8Array,
    latin1: string,
    length: number,
    oversized: boolean,
    unterminated: boolean,
  ) => {
    line.number++;
    const end = view.length > 0 && view[view.length - 1] === CR ? view.length - 1 : view.length;
    line.bytes = end === view.length ? view : view.subarray(0, end);
    line.latin1 = end === latin1.length ? latin1 : latin1.slice(0, end);
    line.length = length;
    line.oversized = oversized;
    line.unterminated = unterminated;
    return visit(line) !== false;
  };
  // The line being read starts at `lineStart` in the buffer and has no
  // newline before `searched`. A line cut by the end of the buffer is moved
  // to its front before the next read, so each line is whole in one buffer
  // and one latin1 copy; a line that fills the whole buffer is read apart.
  const buffer = new Uint8Array(chunkSize);
  let filled = 0;
  let lineStart = 0;
  let searched = 0;
  let bytes = 0;
  while (true) {
    if (filled === buffer.length && lineStart > 0) {
      buffer.copyWithin(0, lineStart, filled);
      filled -= lineStart;
      searched -= lineStart;
      lineStart = 0;
    } else if (filled === buffer.length) {
      const long = readLongLine(file, buffer, limits);
      bytes += long.consumed;
      const going = emit(
        long.bytes,
        toLatin1(long.bytes),
        long.length,
        long.oversized,
        long.unterminated,
      );
      // Let the line's buffer and string die young (see CHUNK_BYTES).
      line.bytes = NO_BYTES;
      line.latin1 = "";
      if (!going || long.unterminated) return { lines: line.number, bytes };
      filled = lineStart = searched = 0;
    }
    const count = file.readSync(buffer.subarray(filled));
    if (count === null || count === 0) break;
    bytes += count;
    filled += count;
    // The copy starts at the line being read, which is then sliced from it.
    const textStart = lineStart;
    const text = toLatin1(buffer.subarray(textStart, filled));
    while (true) {
      const newline = text.indexOf("\n", searched - textStart);
      if (newline === -1) {
        searched = filled;
        break;
      }
      const end = textStart + newline;
      const view = buffer.subarray(lineStart, end);
      const latin1 = text.slice(lineStart - textStart, newline);
      if (!emit(view, latin1, view.length, false, false)) return { lines: line.number, bytes };
      lineStart = searched = end + 1;
    }
    // The last line keeps no slice of this copy alive past its chunk.
    line.latin1 = "";
  }
  if (filled > lineStart) {
    const rest = buffer.subarray(lineStart, filled);
    emit(rest, toLatin1(rest), rest.length, false, true);
  }
  return { lines: line.number, bytes };
}

/** A line that filled the read buffer, read apart from the others. */
interface LongLine {
  /** The whole line, or its first `prefix` bytes when oversized (newline excluded). */
  bytes: Uint8Array;
  /** Its length in bytes, whether or not `bytes` holds all of it. */
  length: number;
  oversized: boolean;
  unterminated: boolean;
  /** File bytes consumed after `head`: the rest of the line and its newline. */
  consumed: number;
}

/**
 * The line whose first bytes fill `head`, the file being just past them.
 * Its end is found first, so the line gets one buffer of its exact size
 * (not a buffer doubled again and again) and one latin1 copy; the file is
 * left just past its newline. A line over `max` keeps only `prefix` bytes.
 */
function readLongLine(
  file: Deno.FsFile,
  head: Uint8Array,
  limits: { max: number; prefix: number },
): LongLine {
  const from = file.seekSync(0, Deno.SeekMode.Current);
  const { rest, terminated } = distanceToNewline(file, head.length);
  const length = head.length + rest;
  const oversized = length > limits.max;
  let bytes = new Uint8Array(oversized ? Math.min(limits.prefix, length) : length);
  bytes.set(head.subarray(0, Math.min(bytes.length, head.length)));
  if (bytes.length > head.length) {
    file.seekSync(from, Deno.SeekMode.Start);
    const got = readFull(file, bytes.subarray(head.length));
    // A file cut short meanwhile: the line ends where the file does.
    if (got < bytes.length - head.length) bytes = bytes.subarray(0, head.length + got);
  }
  const consumed = rest + (terminated ? 1 : 0);
  file.seekSync(from + consumed, Deno.SeekMode.Start);
  return { bytes, length, oversized, unterminated: !terminated, consumed };
}

/** Bytes from the file's position to the next newline (or the end), read in `chunkSize` reads. */
function distanceToNewline(
  file: Deno.FsFile,
  chunkSize: number,
): { rest: number; terminated: boolean } {
  const scratch = new Uint8Array(chunkSize);
  let rest = 0;
  while (true) {
    const count = file.readSync(scratch);
    if (count === null || count === 0) return { rest, terminated: false };
    // Searched in a latin1 copy, as the other lines are: about four times
    // faster than Uint8Array.indexOf, and each copy dies young (CHUNK_BYTES).
    const newline = toLatin1(scratch.subarray(0, count)).indexOf("\n");
    if (newline !== -1) return { rest: rest + newline, terminated: true };
    rest += count;
  }
}

/** Fill `into` from the file's position; the number of bytes read (fewer at its end). */
export function readFull(file: Deno.FsFile, into: Uint8Array): number {
  let got = 0;
  while (got < into.length) {
    const count = file.readSync(into.subarray(got));
    if (count === null || count === 0) break;
    got += count;
  }
  return got;
}
