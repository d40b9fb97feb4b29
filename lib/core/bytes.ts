/**
 * Comparing files' bytes, for writers that must not replace what they have
 * not seen and backups that must not repeat or lose a state.
 *
 * @module
 */

/** Whether `a` and `b` hold the same bytes (null, a file that could not be read, never does). */
export function equalBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
