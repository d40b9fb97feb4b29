/**
 * Which list a terminal gets: the picker, or the numbered menu of the old
 * scripts (`"menu": "numbers"` in `~/.claudecm/config.json`, or
 * `claudecm list --numbers` for one run). A config file that cannot be read
 * or is not JSON leaves the picker: the launch's own read of it names the
 * problem (launch/permissions.ts).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { configFileOf } from "../launch/permissions.ts";
import { UserError } from "../../core/errors.ts";
import { readSettingsText } from "../../core/fs_checks.ts";

/** The two lists. */
export type MenuChoice = "picker" | "numbers";

/** The list config.json asks for; the picker when it asks nothing. */
export function menuSetting(ctx: AppContext): MenuChoice {
  const file = configFileOf(ctx.paths);
  let config: unknown;
  try {
    config = JSON.parse(readSettingsText(file).replace(/^\ufeff/, ""));
  } catch {
    return "picker";
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) return "picker";
  const value = (config as Record<string, unknown>).menu;
  if (value === undefined) return "picker";
  const choice = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (choice === "picker" || choice === "numbers") return choice;
  throw new UserError(
    `${file}: "menu" is ${JSON.stringify(value)}; expected "picker" or "numbers"`,
  );
}
