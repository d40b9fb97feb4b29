/**
 * Split a file into lines with bounded memory, whatever its size. The file is
 * read in fixed chunks; a line that fits in a chunk is handed out as a view of
 * that chunk (no copy), a line that spans chunks is gathered in a carry buffer
 * that grows only up to `maxLineBytes`. Longer lines are reported as oversized
 * with their first bytes only, so one runaway line cannot exhaust memory.
 * Newlines are found in a latin1 copy of each chunk (see latin1.ts), which
 * every line also gets as a slice, for the peeks' native searches.
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
const CHUNK_BYTES = 120 * 1024;

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
  const chunk = new Uint8Array(options.chunkSize ?? CHUNK_BYTES);
  const carry = new Carry(options.maxLineBytes ?? 16 * MiB, options.oversizedPrefix ?? 64 * 1024);
  const line: RawLine = {
    number: 0,
    bytes: chunk,
    latin1: "",
    length: 0,
    unterminated: false,
    oversized: false,
  };
  let bytes = 0;
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
  while (true) {
    const count = file.readSync(chunk);
    if (count === null || count === 0) break;
    bytes += count;
    const view = count === chunk.length ? chunk : chunk.subarray(0, count);
    const text = toLatin1(view);
    let pos = 0;
    while (pos < count) {
      const newline = text.indexOf("\n", pos);
      if (newline === -1) {
        carry.append(view, pos, count);
        break;
      }
      let going: boolean;
      if (carry.empty) {
        const bytes = view.subarray(pos, newline);
        going = emit(bytes, text.slice(pos, newline), newline - pos, false, false);
      } else {
        carry.append(view, pos, newline);
        const bytes = carry.view();
        going = emit(bytes, toLatin1(bytes), carry.total, carry.oversized, false);
        carry.reset();
      }
      if (!going) return { lines: line.number, bytes };
      pos = newline + 1;
    }
  }
  if (!carry.empty) {
    const bytes = carry.view();
    emit(bytes, toLatin1(bytes), carry.total, carry.oversized, true);
  }
  return { lines: line.number, bytes };
}

/** The start of a line that spans chunks, grown by doubling up to a cap. */
class Carry {
  #buffer = new Uint8Array(64 * 1024);
  #kept = 0;
  total = 0;
  oversized = false;

  constructor(readonly max: number, readonly prefix: number) {}

  get empty(): boolean {
    return this.total === 0;
  }

  append(source: Uint8Array, from: number, to: number): void {
    const size = to - from;
    this.total += size;
    if (this.oversized) return;
    if (this.total > this.max) {
      this.oversized = true;
      const room = Math.max(0, this.prefix - this.#kept);
      if (room > 0) this.#copy(source, from, Math.min(to, from + room));
      this.#kept = Math.min(this.#kept, this.prefix);
      if (this.#buffer.length > this.prefix * 2) this.#buffer = this.#buffer.slice(0, this.prefix);
      return;
    }
    this.#copy(source, from, to);
  }

  view(): Uint8Array {
    return this.#buffer.subarray(0, this.#kept);
  }

  reset(): void {
    this.#kept = 0;
    this.total = 0;
    this.oversized = false;
    if (this.#buffer.length > 4 * MiB) this.#buffer = new Uint8Array(64 * 1024);
  }

  #copy(source: Uint8Array, from: number, to: number): void {
    const needed = this.#kept + (to - from);
    if (needed > this.#buffer.length) {
      let size = this.#buffer.length;
      while (size < needed) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.#buffer.subarray(0, this.#kept));
      this.#buffer = grown;
    }
    this.#buffer.set(source.subarray(from, to), this.#kept);
    this.#kept = needed;
  }
}
