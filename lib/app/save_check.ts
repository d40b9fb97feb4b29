/**
 * Refuse before asking (issue 30 item 17): a question whose answer claudecm
 * would save (a name, a path, a choice that changes the list) is not asked
 * when `~/.claudecm` takes no writes now (read-only, closed to this user,
 * full, over quota), so nobody types an answer only to be told it was lost.
 *
 * @module
 */

import type { AppContext } from "./context.ts";
import type { Output } from "../ui/output.ts";
import { environmentUserError, errorMessage, UserError } from "../core/errors.ts";
import { writeRefusalIn } from "../store/write_probe.ts";

/** Why nothing this run would save can be saved, as a one-line error; null when it can. */
export function nothingSaves(ctx: AppContext): UserError | null {
  const refusal = writeRefusalIn(ctx.paths.cmHome);
  if (refusal === null) return null;
  const why = environmentUserError(refusal)?.message ?? errorMessage(refusal);
  return new UserError(`nothing can be saved in this run: ${why}`);
}

/**
 * Instead of asking for `what`, say why it cannot be saved; true when it
 * was said (the caller then asks nothing and changes nothing).
 */
export function refusedBeforeAsking(
  ctx: AppContext,
  what: string,
  { out = ctx.out }: { out?: Output } = {},
): boolean {
  const refusal = nothingSaves(ctx);
  if (refusal === null) return false;
  out.line(`  ${what} is not possible: ${refusal.message}.`, "red");
  return true;
}
