/**
 * What a restore from the vault did, shared by the flow and its view.
 *
 * @module
 */

/** A restore that left the transcript where claude reads it: put back now, or already there. */
export interface Restored {
  status: "restored" | "in-place";
  transcript: string;
  /** Other sessions' sidecar files its lines name, put back with it (restore_named.ts). */
  named?: string[];
}
