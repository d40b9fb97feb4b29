/**
 * Parsers for option values that several commands share, so `--limit`,
 * `--days` and `--budget` accept and refuse the same text with the same
 * message.
 *
 * @module
 */

import { InvalidValueError } from "./command.ts";
import { parseWholeNumber } from "../core/numbers.ts";

/** An option value that must be a whole number of at least 1 (`007` is 7). */
export function parsePositiveInt(value: string): number {
  const number = parseWholeNumber(value);
  if (number === null || number === 0) {
    throw new InvalidValueError("expected a positive whole number.");
  }
  return number;
}
