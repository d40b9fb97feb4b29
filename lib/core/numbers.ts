/**
 * Numbers as users type them: session numbers, counts, budgets. One rule
 * everywhere: digits only, leading zeros allowed (`0001` is 1), so `00` is
 * 0 and each caller says clearly why 0 is not accepted where it is not.
 *
 * @module
 */

/** The value of a typed whole number (`007` is 7); null for anything but digits, or too large. */
export function parseWholeNumber(text: string): number | null {
  if (!/^\d+$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}
