/**
 * Text that round-trips byte for byte. Files claudecm rewrites (the registry)
 * may hold bytes that are not UTF-8, such as a Latin-1 name an older script
 * wrote. A normal decode turns each into U+FFFD and the rewrite destroys it.
 * Here each byte that is not part of valid UTF-8 becomes a lone surrogate
 * U+DC80..U+DCFF (Python's "surrogateescape"), which valid UTF-8 can never
 * produce, and encoding turns it back into the same byte.
 *
 * @module
 */

import { concatBytes } from "./bytes.ts";

// ignoreBOM: a byte order mark is content here. The registry keeps its own
// leading BOM, and one decoded alone (after a byte that is not UTF-8) would
// otherwise vanish from the middle of a line.
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();
const ESCAPE_BASE = 0xdc00;
/** A low surrogate in the escape range with no high surrogate before it. */
const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/** Decode UTF-8, keeping every invalid byte as an escape {@linkcode encodeLossless} restores. */
export function decodeLossless(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    return decodeEscaping(bytes);
  }
}

/** Encode text from {@linkcode decodeLossless} back to exactly the bytes it came from. */
export function encodeLossless(text: string): Uint8Array {
  if (!ESCAPED_BYTE.test(text)) return encoder.encode(text);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const isPairEnd = i > 0 && isHighSurrogate(text.charCodeAt(i - 1));
    if (unit < 0xdc80 || unit > 0xdcff || isPairEnd) continue;
    parts.push(encoder.encode(text.slice(start, i)), Uint8Array.of(unit - ESCAPE_BASE));
    start = i + 1;
  }
  parts.push(encoder.encode(text.slice(start)));
  return concatBytes(parts);
}

function decodeEscaping(bytes: Uint8Array): string {
  let text = "";
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      text += String.fromCharCode(ESCAPE_BASE + bytes[i]);
      i++;
    } else {
      text += strict.decode(bytes.subarray(i, i + length));
      i += length;
    }
  }
  return text;
}

/** The length of the valid UTF-8 sequence at `i` (RFC 3629), or 0 when there is none. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i];
  if (lead < 0x80) return 1;
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0; // no overlong forms
    if (lead === 0xed) high = 0x9f; // no encoded surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f; // nothing above U+10FFFF
  } else return 0;
  if (i + length > bytes.length) return 0;
  if (bytes[i + 1] < low || bytes[i + 1] > high) return 0;
  for (let k = 2; k < length; k++) {
    if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return 0;
  }
  return length;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
