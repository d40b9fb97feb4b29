/**
 * A transcript's searchable text (search_text.ts), read from any byte offset
 * to the end of the last complete line, so an index can pick up where it
 * stopped; a half-written last line is left for the next read; each line's
 * pieces come with where the line is, so a piece can be read back. Apart
 * from search_text.ts because the line reader loads `node:buffer`, which a
 * query that reads no file does without.
 *
 * @module
 */

import { scanLines } from "./lines.ts";
import type { JsonBytes } from "./json_bytes.ts";
import { docsOfLine, type LinePlace, type SearchDoc, type SessionFacts } from "./search_text.ts";

/** Options for {@linkcode readSearchText}. */
export interface ReadSearchTextOptions {
  /** Byte offset to start at: 0, or the end of a line read before. */
  start?: number;
  /** Facts to update in place (carried over from earlier reads of the same file). */
  facts?: SessionFacts;
  /** Sees each raw line (and its latin1 copy) first; false skips it unparsed (a scan's cheap pre-check). */
  lineFilter?: (line: JsonBytes) => boolean;
  /** Leave out what the tools answered (the index does: see find_index_db.ts). */
  withoutToolOutput?: boolean;
}

/** How far a read got. */
export interface SearchTextRead {
  /** Offset just past the last complete line: where the next read starts. */
  end: number;
  /** Bytes consumed from `start` to `end`. */
  bytes: number;
}

/** Read the searchable text of `path` from `options.start`, one line's docs at a time. */
export function readSearchText(
  path: string,
  visit: (docs: SearchDoc[], place: LinePlace) => void,
  options: ReadSearchTextOptions = {},
): SearchTextRead {
  const start = options.start ?? 0;
  const facts = options.facts ?? {};
  let end = start;
  scanLines(path, (line) => {
    if (line.unterminated) return false;
    const lineAt = end;
    end += line.length + 1;
    if (line.oversized || options.lineFilter?.(line) === false) return;
    const docs = docsOfLine(line, facts, options);
    if (docs.length > 0) visit(docs, { lineAt, lineLength: line.bytes.length });
  }, { start });
  return { end, bytes: end - start };
}
