/**
 * Reading a JSON line too long to hold: where it starts, found by scanning
 * backwards, and the top-level string values of a few keys, streamed forward
 * in chunks. The tail reader falls back to this when one line (a pasted
 * screenshot: many megabytes of base64) is longer than its widest window, so
 * a session's last activity is found with bounded memory however long the
 * line is. String contents are skipped with a native `indexOf`, as in scan.ts.
 *
 * @module
 */

import {
  BACKSLASH,
  COLON,
  COMMA,
  LBRACE,
  LBRACKET,
  QUOTE,
  RBRACE,
  RBRACKET,
} from "./json_bytes.ts";
import { decodeJsonString } from "./json_read.ts";

/** Bytes read at a time. */
const CHUNK = 1024 * 1024;
/**
 * Keys and wanted values are short; a longer string is neither. Room for a
 * long Windows path, whose backslashes JSON doubles.
 */
const MAX_CAPTURE = 4096;

const NEWLINE = 0x0a;

/** What streaming one line found. */
export interface LineScan {
  /** The string values (escapes decoded) of the wanted top-level keys that the line has. */
  values: Map<string, string>;
  /** The line's top-level value closed: the line is whole. */
  complete: boolean;
  /** The line holds nothing but white space. */
  blank: boolean;
}

/** The offset just past the last newline before `end` in `file`; 0 when there is none. */
export function lineStartBefore(file: Deno.FsFile, end: number, chunkSize = CHUNK): number {
  const buffer = new Uint8Array(chunkSize);
  let pos = end;
  while (pos > 0) {
    const from = Math.max(0, pos - chunkSize);
    const bytes = readAt(file, from, buffer.subarray(0, pos - from));
    const newline = bytes.lastIndexOf(NEWLINE);
    if (newline !== -1) return from + newline + 1;
    pos = from;
  }
  return 0;
}

/**
 * Stream the line in `[start, end)` of `file` and collect the string values
 * of the top-level `keys` (nested objects' keys of the same name are not
 * them). Memory stays at one chunk (1 MiB unless `chunkSize` says otherwise)
 * whatever the line's length.
 */
export function scanTopLevelStrings(
  file: Deno.FsFile,
  keys: ReadonlySet<string>,
  range: { start: number; end: number; chunkSize?: number },
): LineScan {
  const scanner = new TopLevelScanner(keys);
  const chunkSize = range.chunkSize ?? CHUNK;
  const buffer = new Uint8Array(chunkSize);
  for (let pos = range.start; pos < range.end && !scanner.done;) {
    const bytes = readAt(file, pos, buffer.subarray(0, Math.min(chunkSize, range.end - pos)));
    if (bytes.length === 0) break;
    scanner.feed(bytes);
    pos += bytes.length;
  }
  return { values: scanner.values, complete: scanner.complete, blank: !scanner.seenValue };
}

/** A JSON tokenizer that keeps only depth, string state and the keys of the top-level object. */
class TopLevelScanner {
  readonly values = new Map<string, string>();
  complete = false;
  done = false;
  seenValue = false;
  #keys: ReadonlySet<string>;
  #depth = 0;
  #expectKey = false;
  /** The key just closed, until its colon. */
  #lastKey: string | null = null;
  /** The wanted key whose value comes next. */
  #pendingKey: string | null = null;
  #inString = false;
  #role: "key" | "value" | "other" = "other";
  #capture: number[] | null = null;
  /** Backslashes ending the previous chunk while inside a string. */
  #backslashes = 0;
  #decoder = new TextDecoder();

  constructor(keys: ReadonlySet<string>) {
    this.#keys = keys;
  }

  feed(b: Uint8Array): void {
    let i = 0;
    while (i < b.length && !this.done) {
      if (this.#inString) {
        i = this.#continueString(b, i);
        continue;
      }
      const c = b[i++];
      if (c === 0x20 || c === 0x09 || c === 0x0d || c === NEWLINE) continue;
      this.seenValue = true;
      if (c === QUOTE) this.#openString();
      else if (c === LBRACE || c === LBRACKET) {
        this.#depth++;
        if (this.#depth === 1) this.#expectKey = c === LBRACE;
        else this.#pendingKey = null;
      } else if (c === RBRACE || c === RBRACKET) {
        this.#depth--;
        if (this.#depth <= 0) {
          this.complete = this.#depth === 0;
          this.done = true;
        }
      } else if (this.#depth !== 1) continue;
      else if (c === COLON) {
        this.#pendingKey = this.#lastKey !== null && this.#keys.has(this.#lastKey)
          ? this.#lastKey
          : null;
        this.#lastKey = null;
      } else if (c === COMMA) {
        this.#expectKey = true;
        this.#pendingKey = null;
      } else this.#pendingKey = null; // a number, true, false or null
    }
  }

  #openString(): void {
    this.#inString = true;
    this.#backslashes = 0;
    if (this.#depth === 1 && this.#expectKey) {
      this.#role = "key";
      this.#expectKey = false;
    } else {
      this.#role = this.#depth === 1 && this.#pendingKey !== null ? "value" : "other";
    }
    this.#capture = this.#role === "other" ? null : [];
  }

  /** Consume string bytes from `from`; returns where scanning goes on. */
  #continueString(b: Uint8Array, from: number): number {
    let search = from;
    while (true) {
      const quote = b.indexOf(QUOTE, search);
      const stop = quote === -1 ? b.length : quote;
      let run = 0;
      let k = stop - 1;
      while (k >= from && b[k] === BACKSLASH) {
        run++;
        k--;
      }
      if (k < from) run += this.#backslashes;
      if (quote === -1) {
        this.#keep(b, from, b.length);
        this.#backslashes = run;
        return b.length;
      }
      if (run % 2 === 1) {
        search = quote + 1;
        continue;
      }
      this.#keep(b, from, quote);
      this.#closeString();
      return quote + 1;
    }
  }

  #keep(b: Uint8Array, from: number, to: number): void {
    if (this.#capture === null) return;
    if (this.#capture.length + to - from > MAX_CAPTURE) {
      this.#capture = null;
      return;
    }
    for (let k = from; k < to; k++) this.#capture.push(b[k]);
  }

  /** A captured string's inside as text, escapes decoded; null when it is not valid JSON. */
  #text(capture: number[]): string | null {
    if (!capture.includes(BACKSLASH)) return this.#decoder.decode(new Uint8Array(capture));
    return decodeJsonString(new Uint8Array([QUOTE, ...capture, QUOTE])) ?? null;
  }

  #closeString(): void {
    this.#inString = false;
    const text = this.#capture === null ? null : this.#text(this.#capture);
    if (this.#role === "key") this.#lastKey = text;
    else if (this.#role === "value" && this.#pendingKey !== null && text !== null) {
      this.values.set(this.#pendingKey, text);
    }
    if (this.#role !== "key" && this.#depth === 1) this.#pendingKey = null;
    this.#capture = null;
  }
}

/** Fill `buffer` from `offset` of `file`; the part read (shorter at the end of the file). */
export function readAt(file: Deno.FsFile, offset: number, buffer: Uint8Array): Uint8Array {
  file.seekSync(offset, Deno.SeekMode.Start);
  let got = 0;
  while (got < buffer.length) {
    const count = file.readSync(buffer.subarray(got));
    if (count === null || count === 0) break;
    got += count;
  }
  return buffer.subarray(0, got);
}
