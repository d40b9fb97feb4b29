/**
 * What `skeleton --help` shows of the flow: its exit code. Kept apart from
 * skeleton.ts, with no imports, so the command tree is built without loading
 * the flow.
 *
 * @module
 */

/** Exit code when the session or transcript cannot be found (as `recover`). */
export const SKELETON_NOT_FOUND_EXIT = 3;
