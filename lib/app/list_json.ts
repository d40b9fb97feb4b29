/**
 * Placeholder replaced below.
 *
 * @module
 */
import type { AppContext } from "./context.ts";

/** List the registry. */
export function runListJson(ctx: AppContext, options: { json: boolean }): number {
  ctx.out.line(JSON.stringify(options));
  return 0;
}
