/**
 * Split a file into lines with bounded memory, whatever its size. The file is
 * read in chunks into one buffer; each line is handed out as a view of it (no
 * copy). A line cut by the end of the buffer is moved to its front before the
 * next read, and the buffer grows only up to `maxLineBytes` for a line longer
 * than itself. Longer lines are reported as oversized with their first bytes
 * only, so one runaway line cannot exhaust memory. Newlines are found in a
 * latin1 copy of each read (see latin1.ts), which every line also gets as a
 * slice, for the peeks' native searches; a read's copy starts at the line it
 * continues, so no line is copied to latin1 twice.
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
  const max = options.maxLineBytes ?? 16 * MiB;
  const prefix = options.oversizedPrefix ?? 64 * 1024;
  const line: RawLine = {
    number: 0,
    bytes: new Uint8Array(0),
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
  // to its front before the next read (the buffer grows for a line longer
  // than itself), so each line is whole in one buffer and one latin1 copy.
  let buffer: Uint8Array = new Uint8Array(chunkSize);
  let filled = 0;
  let lineStart = 0;
  let searched = 0;
  let bytes = 0;
  /** The first bytes and the length so far of a line over `max`, read past to its end. */
  let oversized: { kept: Uint8Array; total: number } | undefined;
  while (true) {
    if (filled === buffer.length) {
      const partial = filled - lineStart;
      if (oversized === undefined && partial > max) {
        oversized = {
          kept: buffer.slice(lineStart, lineStart + Math.min(prefix, partial)),
          total: 0,
        };
      }
      if (oversized !== undefined) {
        oversized.total += partial;
        if (buffer.length > chunkSize) buffer = new Uint8Array(chunkSize);
        filled = lineStart = searched = 0;
      } else {
        buffer = makeRoom(buffer, lineStart, filled, { chunkSize, max });
        filled = partial;
        searched -= lineStart;
        lineStart = 0;
      }
    }
    // No latin1 copy is larger than a chunk (a larger string waits for a full
    // GC, see CHUNK_BYTES): a read ends a chunk after the line it continues,
    // or after what was searched of a line already longer than a chunk.
    const carried = filled - lineStart;
    const readEnd = carried < chunkSize ? lineStart + chunkSize : filled + chunkSize;
    const count = file.readSync(buffer.subarray(filled, Math.min(buffer.length, readEnd)));
    if (count === null || count === 0) break;
    bytes += count;
    filled += count;
    // The copy starts at the line being read, which is then sliced from it too;
    // a line already longer than a chunk gets a copy of its own instead.
    const textStart = carried < chunkSize ? lineStart : searched;
    const text = toLatin1(buffer.subarray(textStart, filled));
    while (true) {
      const newline = text.indexOf("\n", searched - textStart);
      if (newline === -1) {
        searched = filled;
        break;
      }
      const end = textStart + newline;
      let going: boolean;
      if (oversized !== undefined) {
        const { kept, total } = oversized;
        oversized = undefined;
        going = emit(kept, toLatin1(kept), total + end - lineStart, true, false);
      } else {
        const view = buffer.subarray(lineStart, end);
        const latin1 = lineStart >= textStart
          ? text.slice(lineStart - textStart, newline)
          : toLatin1(view);
        going = emit(view, latin1, view.length, false, false);
      }
      if (!going) return { lines: line.number, bytes };
      lineStart = searched = end + 1;
    }
  }
  if (oversized !== undefined) {
    const { kept, total } = oversized;
    emit(kept, toLatin1(kept), total + filled - lineStart, true, true);
  } else if (filled > lineStart) {
    const rest = buffer.subarray(lineStart, filled);
    emit(rest, toLatin1(rest), rest.length, false, true);
  }
  return { lines: line.number, bytes };
}

/**
 * A buffer with the partial line from `lineStart` to `filled` at its front
 * and room after it: the same buffer when the line leaves room, a doubled
 * one when the line fills it, back to `chunkSize` once a long line is done.
 */
function makeRoom(
  buffer: Uint8Array,
  lineStart: number,
  filled: number,
  sizes: { chunkSize: number; max: number },
): Uint8Array {
  const { chunkSize, max } = sizes;
  const partial = filled - lineStart;
  let size = buffer.length;
  // Grown to just over `max` at most: a fuller buffer makes its line oversized.
  if (partial === size) size = Math.min(size * 2, max + 1);
  else if (size > chunkSize && partial < chunkSize) size = chunkSize;
  if (size === buffer.length) {
    buffer.copyWithin(0, lineStart, filled);
    return buffer;
  }
  const moved = new Uint8Array(size);
  moved.set(buffer.subarray(lineStart, filled));
  return moved;
}
