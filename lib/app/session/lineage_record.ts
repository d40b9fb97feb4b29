/**
 * Recording a step in claudecm's lineage log (lib/store/lineage_log.ts) from
 * the flows that make one session out of another. The step itself is done
 * when this runs: a log that cannot be written costs only the family tree's
 * link, said in one line, never the step.
 *
 * @module
 */

import { errorMessage } from "../../core/errors.ts";
import { appendLineageEvent, type LineageEvent } from "../../store/lineage_log.ts";
import type { AppContext } from "../context.ts";

/** Record that `event.to` came of `event.from` (now). */
export function recordLineage(ctx: AppContext, event: Omit<LineageEvent, "at">): void {
  try {
    appendLineageEvent(ctx.paths, { ...event, at: ctx.now().toISOString() });
  } catch (error) {
    ctx.err.line(
      `  (claudecm tree will not show this ${event.kind}: ${errorMessage(error)})`,
      "darkGray",
    );
  }
}
