/**
 * What `rescue --help` shows of the flow: its default and exit code. Kept
 * apart from rescue.ts, with no imports, so the command tree is built
 * without loading the flow.
 *
 * @module
 */

/** Days scanned when --days is not given. */
export const DEFAULT_DAYS = 7;

/** Exit code of an invalid or unknown session id (as `recover`). */
export const SESSION_NOT_FOUND_EXIT = 3;
