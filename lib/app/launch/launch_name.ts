/**
 * The name `-n` gives claude (issue 18 item 3). Claude writes it into the
 * transcript as the session's `custom-title` for good, so it is only ever
 * the launched session's own name: its registered DESC, else its own title
 * from its transcript, else (a new session) the name it is registered under.
 * A session with no name of its own gets no `-n` at all.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { readSessionFacts } from "../../transcript/session_facts.ts";
import { titleOf } from "../../transcript/session_title.ts";
import { ownMachineNames } from "../bootstrap/machine_name.ts";

/**
 * A session's own title from its transcript: the last `custom-title`, else
 * the last `ai-title`, else its first prompt; undefined when it has none or
 * its transcript cannot be read.
 */
export function transcriptTitle(
  ctx: AppContext,
  session: { guid: string; dir: string },
): string | undefined {
  const located = locateTranscript(ctx.paths, session);
  if (located.status !== "found") return undefined;
  try {
    return titleOf(readSessionFacts(located.path), { machine: ownMachineNames(ctx) });
  } catch {
    // A name is a nicety: a transcript that cannot be read leaves the session unnamed.
    return undefined;
  }
}
