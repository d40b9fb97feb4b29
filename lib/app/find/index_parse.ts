/**
 * Reading one changed transcript for the index: its pieces of text from
 * where the update starts, the session facts, and the hash of the bytes
 * read (prefix_hash.ts). Plain data in and out, so it runs the same on the
 * main thread or in the update's worker (index_parse_worker.ts).
 *
 * @module
 */

import { hashFilePrefix, type PrefixHashState } from "../../transcript/prefix_hash.ts";
import type { SearchRole, SessionFacts } from "../../transcript/search_text.ts";
import { readSearchText } from "../../transcript/search_text_file.ts";

/** A file to read: from `start`, with the facts and hash state of the bytes before it. */
export interface ParseJob {
  path: string;
  start: number;
  facts: SessionFacts;
  hash: PrefixHashState | undefined;
}

/** A file's pieces of text, one array per field (cheaper to pass between threads). */
export interface ParsedDocs {
  role: SearchRole[];
  text: string[];
  timestamp: (string | null)[];
  lineAt: number[];
  lineLength: number[];
  part: number[];
}

/** What reading a file gave: its text, or that it could not be read (gone, no permission). */
export type ParsedFile =
  | {
    readable: true;
    docs: ParsedDocs;
    facts: SessionFacts;
    /** Offset just past the last complete line. */
    end: number;
    bytes: number;
    /** The hash of the bytes before `end`; empty when the file changed while it was read. */
    prefixHash: string;
  }
  | { readable: false };

/** Read `job`'s file; other errors than a read error are thrown. */
export function parseJob(job: ParseJob): ParsedFile {
  const facts = { ...job.facts };
  const docs: ParsedDocs = {
    role: [],
    text: [],
    timestamp: [],
    lineAt: [],
    lineLength: [],
    part: [],
  };
  try {
    const read = readSearchText(job.path, (lineDocs, place) => {
      for (const [part, doc] of lineDocs.entries()) {
        docs.role.push(doc.role);
        docs.text.push(doc.text);
        docs.timestamp.push(doc.timestamp ?? null);
        docs.lineAt.push(place.lineAt);
        docs.lineLength.push(place.lineLength);
        docs.part.push(part);
      }
    }, { start: job.start, facts, withoutToolOutput: true });
    const prefix = hashFilePrefix(job.path, read.end, job.hash);
    // Written while it was read: the next update reads it again from the start.
    const prefixHash = prefix.length === read.end ? prefix.digest : "";
    return { readable: true, docs, facts, end: read.end, bytes: read.bytes, prefixHash };
  } catch (error) {
    if (isReadError(error)) return { readable: false };
    throw error;
  }
}

function isReadError(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied;
}
