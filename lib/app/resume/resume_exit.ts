/**
 * What follows a resume (spec 11.9 step 5): after a clean exit, the
 * post-exit flow on the session claude ended on; after a refused resume,
 * a note when the transcript is there (the entry is kept), or the offer to
 * drop the entry when the transcript is gone.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { postExit } from "../launch/post_exit.ts";
import { changeRegistry } from "../registry.ts";
import type { ResumeOutcome } from "./resume_session.ts";
import { transcriptPathFor } from "../../core/paths.ts";
import type { Session } from "../../core/registry.ts";
import { removeSession } from "../../core/registry_ops.ts";
import { isFile } from "../../core/fs_checks.ts";

/** Finish a resume of `session` that ended with `outcome`. */
export async function finishResume(
  ctx: AppContext,
  session: Session,
  outcome: ResumeOutcome,
): Promise<void> {
  if (outcome.exitCode === 0) {
    await postExit(ctx, { guid: outcome.effectiveGuid, dir: session.dir });
    return;
  }
  if (isFile(transcriptPathFor(ctx.paths, session.dir, session.guid))) {
    ctx.out.line();
    ctx.out.line(
      `  Claude did not resume '${session.desc}' (exit code ${outcome.exitCode}). The most ` +
        "common causes are an interrupted tool call or a stale deferred-tool marker.",
      "yellow",
    );
    ctx.out.line("  The entry has NOT been deleted; its transcript is still on disk.", "yellow");
    return;
  }
  const answer = ctx.prompter.ask("  Session JSONL is missing. Delete this entry? [Y/n]: ");
  // No answer at all (input closed) is not consent to delete.
  if (answer === null || /^n/i.test(answer.trim())) return;
  await changeRegistry(ctx, (r) => removeSession(r, session.guid, { ifPresent: true }));
  ctx.out.line(`  Deleted entry: ${session.desc}`, "green");
}
