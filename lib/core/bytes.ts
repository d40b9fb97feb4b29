/**
 * Comparing and joining bytes, for writers that must not replace what they
 * have not seen, backups that must not repeat or lose a state, and byte-level
 * edits that keep every byte they do not change.
 *
 * @module
 */

/** Whether `a` and `b` hold the same bytes (null, a file that could not be read, never does). */
export function equalBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `parts` joined into one array. */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
