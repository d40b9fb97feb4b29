/**
 * M in the numbered menu and the picker (spec 11.1 step 8): a new machine
 * name, saved, for the launches from that list at once.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { MachineNameNotSaved, saveMachineName } from "../bootstrap/bootstrap.ts";
import type { LaunchSettings } from "./launch_setup.ts";

/** Ask a new machine name and save it; returns the settings with the name launches now carry. */
export function changeMachineName(ctx: AppContext, settings: LaunchSettings): LaunchSettings {
  ctx.out.line();
  ctx.out.line(`  Machine name: ${settings.machineName}`);
  const answer = ctx.prompter.ask("  New name (Enter to keep): ") ?? "";
  let saved: string | null;
  try {
    saved = saveMachineName(ctx, answer);
  } catch (error) {
    if (!(error instanceof MachineNameNotSaved)) throw error;
    ctx.err.line(`  ${error.message}`, "yellow");
    return { ...settings, machineName: error.machineName };
  }
  if (saved === null) return settings;
  ctx.out.line(`  Machine name saved: ${saved}`, "green");
  return { ...settings, machineName: saved };
}
