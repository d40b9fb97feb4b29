/**
 * Typed entries from a JSONL transcript, streamed. Lenient mode (the default)
 * never aborts: a corrupt line is skipped and counted, a half-written final
 * line is reported as truncated. Strict mode stops at the first bad line with
 * an error naming it. Lines whose cheaply peeked `type` is not wanted are not
 * parsed at all, which is what makes a full pass fast.
 *
 * @module
 */

import { readFailure } from "../core/fs_checks.ts";
import { errorMessage, UserError } from "../core/errors.ts";
import { type RawLine, scanLines, type ScanLinesOptions } from "./lines.ts";
import { type Entry, ENTRY_TYPES, toEntry } from "./model.ts";
import { peekType } from "./scan.ts";

/** `lenient` skips and counts bad lines; `strict` fails on the first. */
export type ReadMode = "lenient" | "strict";

/** What a read met besides the entries. */
export interface ReadReport {
  lines: number;
  bytes: number;
  /** Lines that were not valid JSON, skipped. */
  corrupt: number;
  /** The first few corrupt line numbers, for messages. */
  corruptLines: number[];
  /** The final line was half-written (no newline and not valid JSON). */
  truncated: boolean;
  /** Lines over the size limit, skipped. */
  oversized: number;
  /** The first few oversized line numbers, for messages. */
  oversizedLines: number[];
}

/**
 * What a lenient read skipped, as a clause for a reader of its result ("1
 * line too long to read (line 23) and 2 corrupt lines (4, 9) skipped"); null
 * when it skipped nothing. Whatever is built from the rest may lack what those
 * lines held: a digest's last instruction, a skeleton's recent context.
 */
export function skippedLinesNote(report: ReadReport): string | null {
  const parts: string[] = [];
  if (report.oversized > 0) {
    parts.push(
      linesClause(report.oversized, report.oversizedLines, [
        "line too long to read",
        "lines too long to read",
      ]),
    );
  }
  if (report.corrupt > 0) {
    parts.push(linesClause(report.corrupt, report.corruptLines, ["corrupt line", "corrupt lines"]));
  }
  return parts.length === 0 ? null : `${parts.join(" and ")} skipped`;
}

/** "1 corrupt line (line 4)", "3 corrupt lines (lines 4, 9, ...)": `at` holds the first few. */
function linesClause(count: number, at: number[], [one, many]: [string, string]): string {
  const where = at.join(", ") + (count > at.length ? ", ..." : "");
  return count === 1 ? `1 ${one} (line ${where})` : `${count} ${many} (lines ${where})`;
}

/** Options for {@linkcode readEntries}. */
export interface ReadEntriesOptions {
  mode?: ReadMode;
  /** Entry types to parse and deliver; all modelled types by default. */
  types?: ReadonlySet<string>;
  /**
   * Sees a wanted line before it is parsed; returning true means it was fully
   * handled from the raw bytes and needs no parse (lenient mode).
   */
  preview?: (type: string, line: RawLine) => boolean;
  /**
   * Strict mode only: report a half-written final line (claude died mid-write)
   * as `truncated` instead of failing on it.
   */
  allowHalfWrittenEnd?: boolean;
  scan?: ScanLinesOptions;
}

/** A transcript that strict mode rejects, or that cannot be read at all. */
export class TranscriptError extends UserError {
  /** The 1-based line strict mode stopped at, when the failure is a line's. */
  readonly line?: number;
  /** What is wrong with that line (the JSON parser's message, for invalid JSON). */
  readonly reason?: string;
  constructor(message: string, at: { line?: number; reason?: string } = {}) {
    super(message);
    this.name = "TranscriptError";
    this.line = at.line;
    this.reason = at.reason;
  }
}

const MAX_REPORTED = 10;
const decoder = new TextDecoder();

/** Stream the entries of the transcript at `path` to `onEntry`. */
export function readEntries(
  path: string,
  onEntry: (entry: Entry, line: RawLine) => void,
  options: ReadEntriesOptions = {},
): ReadReport {
  const strict = options.mode === "strict";
  const types = options.types ?? ENTRY_TYPES;
  const report: ReadReport = {
    lines: 0,
    bytes: 0,
    corrupt: 0,
    corruptLines: [],
    truncated: false,
    oversized: 0,
    oversizedLines: [],
  };
  const bad = (line: RawLine, what: string, reason: string) => {
    if (strict) {
      throw new TranscriptError(`${path}: line ${line.number} ${what}`, {
        line: line.number,
        reason,
      });
    }
    report.corrupt++;
    if (report.corruptLines.length < MAX_REPORTED) report.corruptLines.push(line.number);
  };
  const summary = scanReadable(path, (line) => {
    let bytes = line.bytes;
    if (line.number === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      bytes = line.bytes = bytes.subarray(3);
      line.latin1 = line.latin1.slice(3);
    }
    if (isBlank(bytes)) return;
    if (line.oversized) {
      if (line.unterminated) report.truncated = true;
      if (strict && !(line.unterminated && options.allowHalfWrittenEnd)) {
        throw new TranscriptError(`${path}: line ${line.number} is too long to read`, {
          line: line.number,
          reason: `${line.length} bytes, over the line size limit`,
        });
      }
      report.oversized++;
      if (report.oversizedLines.length < MAX_REPORTED) report.oversizedLines.push(line.number);
      return;
    }
    const type = peekType(line);
    const wanted = type === undefined || types.has(type);
    if (!wanted && !strict && !line.unterminated) return;
    if (!strict && type !== undefined && wanted && options.preview?.(type, line)) return;
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(bytes));
    } catch (error) {
      if (line.unterminated) {
        if (strict && !options.allowHalfWrittenEnd) {
          throw new TranscriptError(`${path}: line ${line.number} is half-written`, {
            line: line.number,
            reason: "half-written",
          });
        }
        report.truncated = true;
      } else {
        bad(line, "is not valid JSON", errorMessage(error));
      }
      return;
    }
    const entry = toEntry(value);
    if (entry !== undefined && types.has(entry.type)) onEntry(entry, line);
  }, options.scan);
  report.lines = summary.lines;
  report.bytes = summary.bytes;
  return report;
}

/** {@linkcode scanLines}, with a file that cannot be read turned into one clear error. */
function scanReadable(
  path: string,
  visit: (line: RawLine) => void,
  options: ScanLinesOptions | undefined,
): { lines: number; bytes: number } {
  try {
    return scanLines(path, visit, options);
  } catch (error) {
    if (
      error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied ||
      error instanceof Deno.errors.IsADirectory
    ) {
      throw new TranscriptError(readFailure(path, error));
    }
    throw error;
  }
}

function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}
