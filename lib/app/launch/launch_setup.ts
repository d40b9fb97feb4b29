/**
 * What every command that launches claude does first: switch to the run-as
 * user when running as root (DESIGN.md 5.5), bootstrap claudecm's state, and
 * settle the permission flags (DESIGN.md 5.6; the choice: permissions.ts).
 *
 * @module
 */

import type { SessionInfoCache } from "../../core/session_info.ts";
import type { AppContext } from "../context.ts";
import { bootstrap } from "../bootstrap/bootstrap.ts";
import { readPermissionsSetting } from "./permissions.ts";
import { UserError } from "../../core/errors.ts";
import {
  decideRunAs,
  permissionArgs,
  type Reexec,
  reexec,
  runAsFacts,
  type Stay,
} from "../../platform/run_as.ts";

/** What the launch flows need from the setup. */
export interface LaunchSettings {
  /** For display names, `<machine> - <name>`. */
  machineName: string;
  /** `--dangerously-skip-permissions`, `--permission-mode MODE`, or nothing. */
  permissionArgs: string[];
}

/** Setup done: launch with these settings; or claudecm ran again as another user. */
export type LaunchSetup = { settings: LaunchSettings } | { reexecExitCode: number };

/** Options for {@linkcode prepareLaunch}, for tests. */
export interface PrepareLaunchOptions {
  decide?: (ctx: AppContext) => Reexec | Stay;
  /**
   * False for the menus (list, search), which are useful without claude: a
   * missing claude is then said when a pick launches it.
   */
  requireClaude?: boolean;
  /** Transcript lookups the caller makes again after (the picker's rows): made once. */
  locateCache?: SessionInfoCache;
}

/**
 * Re-exec as the run-as user when root and one exists (the state then lands
 * in that user's HOME, as with the old bash script); otherwise check that
 * claude can be found (a UserError if not), bootstrap and return the settings, with a one-line notice when the bypass flag cannot be
 * used.
 */
export async function prepareLaunch(
  ctx: AppContext,
  options: PrepareLaunchOptions = {},
): Promise<LaunchSetup> {
  // Read before a switch too: root's "ask" must reach the other user's claude (run_as.ts).
  const permissions = readPermissionsSetting(ctx);
  if (permissions.error !== null) throw new UserError(permissions.error);
  const decide = options.decide ??
    ((c: AppContext) => decideRunAs({ ...runAsFacts(c.env), permissions: permissions.choice }));
  const decision = decide(ctx);
  if (decision.action === "reexec") return { reexecExitCode: await reexec(decision) };
  // A missing claude is said before any question, not after the user has typed a name.
  if (options.requireClaude !== false) await ctx.tools.claude();
  const bypass = permissions.choice === "bypass";
  if (decision.notice && bypass) ctx.err.line(`  ${decision.notice}`, "yellow");
  // Without a terminal nobody can answer: the hostname for this run, unsaved, so a run in a
  // terminal still asks (DESIGN.md 5.2).
  const { machineName } = await bootstrap(ctx, {
    mayPrompt: ctx.keyboard,
    locateCache: options.locateCache,
  });
  return {
    settings: {
      machineName,
      permissionArgs: permissionArgs(ctx.env, bypass && decision.bypassAllowed),
    },
  };
}

/**
 * The name claude shows for a session: `<machine> - <name>`. A name that
 * already starts so (a title claude took from an earlier `-n`) is kept as
 * it is, so it does not grow by a prefix at every resume.
 */
export function displayNameFor(settings: LaunchSettings, name: string): string {
  const prefix = `${settings.machineName} - `;
  return name.startsWith(prefix) ? name : `${prefix}${name}`;
}
