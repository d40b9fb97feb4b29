/**
 * A session two lines of `sessions.txt` name: the first is its row, the
 * second is kept as written but does not parse ("already on line N").
 * Archiving or deleting the row would let that second line take its place,
 * so those wait until the user removes one of the two.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { Output } from "../../ui/output.ts";
import { malformedLineNaming } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";

/** Whether another line also names `guid`; if so, says so and what to do. */
export function namedTwice(
  ctx: AppContext,
  guid: string,
  { out = ctx.out }: { out?: Output } = {},
): boolean {
  const line = malformedLineNaming(readRegistry(ctx.paths), guid);
  if (line === undefined) return false;
  out.line(
    `  Line ${line.lineNumber} of the session list also names this session (${line.reason}). ` +
      "Remove one of the two lines first; claudecm doctor lists them.",
    "yellow",
  );
  return true;
}
