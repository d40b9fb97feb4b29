/**
 * What `rescue --help` shows of the flow: its default. Kept
 * apart from rescue.ts, with no imports, so the command tree is built
 * without loading the flow.
 *
 * @module
 */

/** Days scanned when --days is not given. */
export const DEFAULT_DAYS = 7;
