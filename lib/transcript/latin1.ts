/**
 * Bytes as a latin1 string: one character per byte, so a byte offset is a
 * string offset. It is not the decoded text; it exists because V8's string
 * `indexOf` is several times faster than `Uint8Array.prototype.indexOf`, and
 * the line splitter and the peeks spend most of their time searching.
 *
 * @module
 */

import { Buffer } from "node:buffer";

/** `bytes` as a latin1 string (one character per byte), copied once natively. */
export function toLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
}
