/**
 * The one way a step that moves or deletes a session's files acts (issue 17
 * item 2): under the registry lock, it checks again what it relies on
 * ({@linkcode Preconditions}: not live, registered or not, the same files as
 * shown) and acts only when all of it still holds, changing the registry in
 * the same hold of the lock. D#, P#, quarantine, trim's pre-trim move and the
 * fork predecessor's move all go through here.
 *
 * @module
 */

import type { AppContext } from "./context.ts";
import { changeRegistry } from "./registry.ts";
import { preconditionFailure, type Preconditions } from "../core/preconditions.ts";
import { isSessionLive } from "../platform/live_sessions.ts";
import type { Registry } from "../core/registry.ts";
import type { RegistryOperation } from "../store/registry_store.ts";
import { environmentUserError, errorMessage } from "../core/errors.ts";

/** A step that failed before it acted: why it did nothing (for a `.catch` of the step). */
export function refusalOf(error: unknown): { done: false; reason: string; acted: false } {
  return { done: false, reason: errorMessage(error), acted: false };
}

/**
 * What the step did: its value and the registry as written; or why it did
 * not finish, with `acted` true when its action ran (files may have moved or
 * gone) and only the registry change could not be written: never a "nothing
 * was done" then.
 */
export type RecheckedStep<T> =
  | { done: true; value: T; registry: Registry }
  | { done: false; reason: string; acted: boolean };

/** What the step's action returns: its value, and the registry change that goes with it. */
export interface StepAction<T> {
  value: T;
  /**
   * A {@linkcode RegistryOperation}: the writer may apply it again to a
   * fresher registry, after the files have moved, so it must take that
   * registry as it finds it (a row already gone is no error).
   */
  change?: RegistryOperation;
}

/**
 * Check `expected` under the registry lock and, when it holds, run `act`
 * there. `act` runs at most once, even when the writer's compare-and-swap
 * applies the operation again (only the registry change is re-applied then);
 * when it throws, the registry is left as it was.
 */
export async function recheckThenAct<T>(
  ctx: AppContext,
  expected: Preconditions,
  act: () => StepAction<T>,
): Promise<RecheckedStep<T>> {
  let outcome: { reason: string } | StepAction<T> | undefined;
  let registry: Registry;
  try {
    registry = await changeRegistry(ctx, (current) => {
      if (outcome === undefined) {
        const live = isSessionLive(ctx.paths, expected.guid);
        const reason = preconditionFailure({ paths: ctx.paths, registry: current, live }, expected);
        outcome = reason === null ? act() : { reason };
      }
      return "change" in outcome && outcome.change !== undefined
        ? outcome.change(current)
        : current;
    });
  } catch (error) {
    if (outcome === undefined || "reason" in outcome) throw error;
    const why = environmentUserError(error)?.message ?? errorMessage(error);
    return { done: false, reason: `the session list could not be updated (${why})`, acted: true };
  }
  if (outcome === undefined || "reason" in outcome) {
    return { done: false, reason: outcome?.reason ?? "nothing was checked", acted: false };
  }
  return { done: true, value: outcome.value, registry };
}
