/**
 * What `recover --help` shows of the flow: its defaults and exit code. Kept
 * apart from recover.ts, with no imports, so the command tree is built
 * without loading the flow.
 *
 * @module
 */

/** Exit code of an invalid or unknown session id (documented in `recover --help`). */
export const SESSION_NOT_FOUND_EXIT = 3;

/** Candidates listed when --limit is not given. */
export const DEFAULT_LIMIT = 10;
