/**
 * doctor's permissions line: whether claude's permission prompts are
 * bypassed, and how to change it (issue 18 item 7).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { AddFinding, CheckStatus } from "./doctor_model.ts";
import {
  configFileOf,
  PERMISSIONS_VARIABLE,
  type PermissionsChoice,
  type PermissionsSetting,
  readPermissionsSetting,
} from "../launch/permissions.ts";

/** The permissions choice in force. */
export interface PermissionsCheck {
  status: CheckStatus;
  /** `bypass`: `--dangerously-skip-permissions`; `ask`: claude asks. Null when the setting is unusable. */
  choice: PermissionsChoice | null;
  source: PermissionsSetting["source"];
  configFile: string;
  variable: string;
}

/** Read the choice; an unusable one is a problem (every launch refuses it). */
export function checkPermissions(ctx: AppContext, add: AddFinding): PermissionsCheck {
  const setting = readPermissionsSetting(ctx);
  if (setting.error !== null) {
    add("problem", `${setting.error}; claudecm starts no claude until then`);
  }
  return {
    status: "ok",
    choice: setting.error === null ? setting.choice : null,
    source: setting.source,
    configFile: configFileOf(ctx.paths),
    variable: PERMISSIONS_VARIABLE,
  };
}

/** One line for the text report. */
export function permissionsSummary(check: PermissionsCheck): string {
  const from = check.source === "default"
    ? "the default"
    : check.source === "config"
    ? `set in ${check.configFile}`
    : `set by ${check.variable}`;
  if (check.choice === null) return "the setting cannot be used";
  if (check.choice === "ask") return `ask (${from}): claude asks before it acts, as it would alone`;
  return `bypass (${from}): claude gets --dangerously-skip-permissions where it accepts it; ` +
    `"permissions": "ask" in ${check.configFile} or ${check.variable}=ask turns that off`;
}
