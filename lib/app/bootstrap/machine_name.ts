/**
 * The machine name as saved, without bootstrap's weight: flows that read a
 * title strip claudecm's own `<machine> - ` launch prefix with it.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { cleanName } from "../../core/safe_text.ts";
import { readSettingsText } from "../../core/fs_checks.ts";

/** The saved machine name; null when none is saved. */
export function readMachineName(ctx: AppContext): string | null {
  try {
    // Cleaned as it is saved: a name edited by hand goes into every session's -n too.
    const name = cleanName(readSettingsText(ctx.paths.machineNameFile).split(/\r?\n/)[0]);
    return name === "" ? null : name;
  } catch {
    return null;
  }
}

/** The lowercased hostname, the fallback machine name. */
export function hostnameFallback(ctx: AppContext): string {
  return ctx.hostname().toLowerCase();
}

/**
 * The names this machine's launches may have put before a session's name
 * (`-n "<machine> - <name>"`): the saved one, and the hostname, which the
 * runs before it was saved (or with nobody to ask it of) used unsaved.
 */
export function ownMachineNames(ctx: AppContext): readonly string[] {
  const saved = readMachineName(ctx);
  const host = hostnameFallback(ctx);
  return saved === null || saved === host ? [host] : [saved, host];
}
