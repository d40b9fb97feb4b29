/**
 * What `adopt` finds and writes, shared by the flow and its view.
 *
 * @module
 */

/** A session `adopt` can add. */
export interface AdoptCandidate {
  sessionId: string;
  dir: string;
  title: string;
  lastActivity: string | null;
  size: number;
  transcript: string;
}

/** A session left out, with why, when the user should hear of it. */
export interface AdoptSkip {
  sessionId: string;
  dir: string;
  reason: string;
}

/** What an adopt wrote: the ids it added, and how many chosen transcripts went meanwhile. */
export interface Adopted {
  added: string[];
  gone: number;
}
