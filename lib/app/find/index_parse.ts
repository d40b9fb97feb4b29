/**
 * Reading one changed transcript for the index: its pieces of text from
 * where the update starts, the session facts, and the hash of the bytes
 * read (prefix_hash.ts). Plain data in and out, so it runs the same on the
 * main thread or in the update's worker (index_parse_worker.ts).
 *
 * @module
 */

import { isGoneOrClosed } from "../../core/fs_checks.ts";
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

/** Some of a file's pieces of text, one array per field (cheaper to pass between threads). */
export interface ParsedDocs {
  role: SearchRole[];
  text: string[];
  timestamp: (string | null)[];
  lineAt: number[];
  lineLength: number[];
  part: number[];
}

/** How a file's reading ended: read to `end`, or not readable (gone, no permission). */
export type ParsedEnd =
  | {
    readable: true;
    facts: SessionFacts;
    /** Offset just past the last complete line. */
    end: number;
    bytes: number;
    /** The hash of the bytes before `end`; empty when the file changed while it was read. */
    prefixHash: string;
  }
  | { readable: false };

/** What reading a file gives, in order: its text in parts (none for a file with no text), then its end. */
export type ParsedPart = { docs: ParsedDocs } | { ended: ParsedEnd };

/** Characters of text per part: a big transcript's text is never all held at once. */
const PART_CHARS = 1024 * 1024;

/** Read `job`'s file, handing its parts to `emit`; other errors than a read error are thrown. */
export function parseJob(job: ParseJob, emit: (part: ParsedPart) => void): void {
  const facts = { ...job.facts };
  let docs = noDocs();
  let chars = 0;
  try {
    const read = readSearchText(job.path, (lineDocs, place) => {
      for (const [part, doc] of lineDocs.entries()) {
        docs.role.push(doc.role);
        docs.text.push(doc.text);
        docs.timestamp.push(doc.timestamp ?? null);
        docs.lineAt.push(place.lineAt);
        docs.lineLength.push(place.lineLength);
        docs.part.push(part);
        chars += doc.text.length;
      }
      if (chars >= PART_CHARS) {
        emit({ docs });
        docs = noDocs();
        chars = 0;
      }
    }, { start: job.start, facts, withoutToolOutput: true });
    if (docs.text.length > 0) emit({ docs });
    const prefix = hashFilePrefix(job.path, read.end, job.hash);
    // Written while it was read: the next update reads it again from the start.
    const prefixHash = prefix.length === read.end ? prefix.digest : "";
    emit({ ended: { readable: true, facts, end: read.end, bytes: read.bytes, prefixHash } });
  } catch (error) {
    if (!isGoneOrClosed(error)) throw error;
    emit({ ended: { readable: false } });
  }
}

function noDocs(): ParsedDocs {
  return { role: [], text: [], timestamp: [], lineAt: [], lineLength: [], part: [] };
}
