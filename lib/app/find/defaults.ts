/**
 * What `find --help` shows of the flow: its default. Kept apart from
 * find.ts, with no imports, so the command tree is built without loading
 * the flow.
 *
 * @module
 */

/** Sessions shown when --limit is not given. */
export const DEFAULT_FIND_LIMIT = 20;
