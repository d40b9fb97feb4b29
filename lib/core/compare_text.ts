/**
 * Ordering of strings by UTF-16 code unit, for what claudecm sorts: session
 * ids, ISO timestamps, file and command names. Not `localeCompare`: its first
 * call builds an ICU collator, about 10 ms of a 25 ms start (measured), and
 * its order changes with the user's locale, where ids and times need one.
 *
 * @module
 */

/** Negative when `a` sorts before `b`, positive after, 0 when equal: code unit order. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
