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
  /** CLAUDECM_PERMISSION_MODE: claude gets `--permission-mode` with it, whatever the choice says. */
  mode: string | null;
}

/** The variable that passes `--permission-mode` instead (DESIGN.md 5.6). */
const MODE_VARIABLE = "CLAUDECM_PERMISSION_MODE";

/** The modes claude 2.1.332 accepts (its --help); claude refuses to start with another. */
const KNOWN_MODES = [
  "acceptEdits",
  "auto",
  "bypassPermissions",
  "default",
  "dontAsk",
  "manual",
  "plan",
];

/** Read the choice; an unusable one is a problem (every launch refuses it). */
export function checkPermissions(ctx: AppContext, add: AddFinding): PermissionsCheck {
  const setting = readPermissionsSetting(ctx);
  if (setting.error !== null) {
    add("problem", `${setting.error}; claudecm starts no claude until then`);
  }
  const mode = ctx.env(MODE_VARIABLE)?.trim() || null;
  if (mode !== null && !KNOWN_MODES.includes(mode)) {
    add(
      "warning",
      `${MODE_VARIABLE}=${mode} is not a mode claude knows (${KNOWN_MODES.join(", ")}): ` +
        "claude will likely refuse to start",
    );
  }
  return {
    status: "ok",
    choice: setting.error === null ? setting.choice : null,
    source: setting.source,
    configFile: configFileOf(ctx.paths),
    variable: PERMISSIONS_VARIABLE,
    mode,
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
  // The mode wins at every launch (platform/run_as.ts permissionArgs).
  if (check.mode !== null) {
    return `mode ${check.mode} (set by ${MODE_VARIABLE}): claude gets --permission-mode ` +
      `${check.mode}, and never --dangerously-skip-permissions while it is set`;
  }
  if (check.choice === "ask") return `ask (${from}): claude asks before it acts, as it would alone`;
  return `bypass (${from}): claude gets --dangerously-skip-permissions where it accepts it; ` +
    `"permissions": "ask" in ${check.configFile} or ${check.variable}=ask turns that off`;
}
