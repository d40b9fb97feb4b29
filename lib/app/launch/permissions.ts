/**
 * Whether claude's permission prompts are bypassed (issue 18 item 7, DESIGN.md
 * 5.6). Every launch passes `--dangerously-skip-permissions` by default, as
 * the old scripts did; `"permissions": "ask"` in `~/.claudecm/config.json`,
 * or `CLAUDECM_PERMISSIONS=ask` (which wins), leaves claude to ask.
 *
 * A value claudecm does not know is an error, never a silent bypass: this is
 * the setting that decides what claude may do without asking.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { probePath, readFailure, readSettingsText } from "../../core/fs_checks.ts";
import { firstDuplicateKey } from "../../core/json_keys.ts";
import type { Paths } from "../../core/paths.ts";

/** `bypass`: claude gets `--dangerously-skip-permissions`; `ask`: it asks as it would alone. */
export type PermissionsChoice = "bypass" | "ask";

/** The choice in force and where it comes from. */
export interface PermissionsSetting {
  choice: PermissionsChoice;
  source: "default" | "config" | "environment";
  /** Why the setting cannot be used (a launch refuses; doctor reports it); null when it can. */
  error: string | null;
}

/** The environment variable that chooses, over the config file. */
export const PERMISSIONS_VARIABLE = "CLAUDECM_PERMISSIONS";

const CHOICES: readonly PermissionsChoice[] = ["bypass", "ask"];

/** `~/.claudecm/config.json`. */
export function configFileOf(paths: Paths): string {
  return paths.path.join(paths.cmHome, "config.json");
}

/** The permissions choice: the environment, else the config file, else `bypass`. */
export function readPermissionsSetting(ctx: AppContext): PermissionsSetting {
  const fromEnv = ctx.env(PERMISSIONS_VARIABLE)?.trim();
  if (fromEnv) {
    const choice = choiceOf(fromEnv);
    return choice === null
      ? refused("environment", `${PERMISSIONS_VARIABLE}=${fromEnv}: ${EXPECTED}`)
      : { choice, source: "environment", error: null };
  }
  const file = configFileOf(ctx.paths);
  const probe = probePath(file);
  if (probe.kind === "missing") return { choice: "bypass", source: "default", error: null };
  if (probe.kind === "unreadable") return refused("config", `cannot read ${file}: ${probe.error}`);
  let text: string;
  try {
    text = readSettingsText(file);
  } catch (error) {
    return refused("config", readFailure(file, error));
  }
  let config: unknown;
  try {
    // A byte order mark (a Windows editor's) is read past, as in settings.json.
    config = JSON.parse(text.replace(/^\ufeff/, ""));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return refused("config", `${file} is not valid JSON (${reason}); fix it or remove it`);
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return refused("config", `${file} is not a JSON object like {"permissions": "ask"}`);
  }
  // JSON.parse keeps the last of two same keys: which one the user meant is theirs to say.
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== null) {
    return refused(
      "config",
      `${file} line ${duplicate.line}: ${
        JSON.stringify(duplicate.key)
      } is set again (first on line ` +
        `${duplicate.firstLine}); keep one`,
    );
  }
  // A key spelt another way ("Permissions", "permission", "permissions ") is a choice the user
  // meant, not an absent one.
  const near = Object.keys(config).find((key) =>
    key !== "permissions" && key.trim().toLowerCase().replace(/s$/, "") === "permission"
  );
  if (near !== undefined) return refused("config", `${file}: "${near}" should be "permissions"`);
  const value = (config as Record<string, unknown>).permissions;
  if (value === undefined) return { choice: "bypass", source: "default", error: null };
  const choice = typeof value === "string" ? choiceOf(value) : null;
  return choice === null
    ? refused("config", `${file}: "permissions" is ${JSON.stringify(value)}; ${EXPECTED}`)
    : { choice, source: "config", error: null };
}

const EXPECTED = 'expected "ask" or "bypass"';

function choiceOf(text: string): PermissionsChoice | null {
  const lower = text.trim().toLowerCase();
  return CHOICES.find((choice) => choice === lower) ?? null;
}

function refused(source: PermissionsSetting["source"], error: string): PermissionsSetting {
  return { choice: "ask", source, error };
}
