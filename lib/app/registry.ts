/**
 * The registry as flows change it: {@linkcode updateRegistry} plus the
 * spec's yellow warning when the lock could not be had (spec 5.1).
 *
 * @module
 */

import type { AppContext } from "./context.ts";
import type { Registry } from "../core/registry.ts";
import { type RegistryOperation, updateRegistry } from "../store/registry_store.ts";
import { followOwnChange } from "./shown_list.ts";

/**
 * Apply `operation` to the registry under the lock (re-applied on a fresher
 * registry if the file changed meanwhile, see {@linkcode RegistryOperation});
 * warns (yellow) and proceeds on a lock timeout.
 */
export async function changeRegistry(
  ctx: AppContext,
  operation: RegistryOperation,
): Promise<Registry> {
  const registry = await updateRegistry(ctx.paths, operation, {
    onTimeout: () =>
      ctx.err.line(
        "  Could not lock sessions.txt within 10 s (another claudecm is writing?); saving anyway.",
        "yellow",
      ),
  });
  // This terminal's own change: the numbers it was shown follow it (shown_list.ts).
  followOwnChange(ctx, registry);
  return registry;
}
