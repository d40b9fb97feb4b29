/**
 * What `recover --help` shows of the flow: its defaults. Kept
 * apart from recover.ts, with no imports, so the command tree is built
 * without loading the flow.
 *
 * @module
 */

/** The digest's budget, in characters, when --budget is not given. */
export const DEFAULT_BUDGET = 12_000;
/** Candidates listed when --limit is not given. */
export const DEFAULT_LIMIT = 10;
