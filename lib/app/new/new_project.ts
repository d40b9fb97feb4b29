/**
 * A new project from list mode (spec 11.8): text that is not a number or a
 * key may be the title of a new project. It is created only after an
 * explicit yes, in a fresh folder under the cwd, and launched like any new
 * session (write-ahead registration).
 *
 * @module
 */

import { type AppContext, launchContext } from "../context.ts";
import { refusedBeforeAsking } from "../save_check.ts";
import { finishFreshLaunch } from "../after_exit/fresh_exit.ts";
import { freshLaunch } from "../launch/fresh_launch.ts";
import type { LaunchSettings } from "../launch/launch_setup.ts";
import { ExitCode } from "../../core/errors.ts";
import { pathExists } from "../../core/fs_checks.ts";
import {
  InvalidRegistryFieldError,
  validateSessionDir,
  validateSessionName,
} from "../../core/registry.ts";
import { askYesNo } from "../../ui/prompt.ts";

/**
 * Ask before creating project `title`; null when not created (the list
 * goes on), else the exit code of the session it launched.
 */
export async function offerNewProject(
  ctx: AppContext,
  { settings, title }: { settings: LaunchSettings; title: string },
): Promise<number | null> {
  ctx.out.line();
  // Its row is written before claude starts (write-ahead registration).
  if (refusedBeforeAsking(ctx, `A new project named '${title}'`)) return null;
  const question =
    `  '${title}' is not a session number. Create a NEW project named '${title}'? [y/N]: `;
  if (!askYesNo(ctx.prompter, question, { defaultYes: false })) {
    ctx.out.line("  Cancelled. No project created.");
    ctx.out.line();
    return null;
  }
  const dir = freeFolder(ctx, projectFolderName(title));
  try {
    // Before the folder is made: a name or a folder sessions.txt cannot store is refused.
    validateSessionName(title);
    validateSessionDir(dir);
  } catch (error) {
    if (!(error instanceof InvalidRegistryFieldError)) throw error;
    ctx.out.line(`  ${error.message}`, "red");
    return null;
  }
  // The menu's dialogue ends here (a refusal above goes back to it): from here on it is a launch.
  ctx = launchContext(ctx);
  Deno.mkdirSync(dir);
  ctx.out.line();
  ctx.out.line(`  Starting new session: ${title}`);
  ctx.out.line(`  Project dir: ${dir}`);
  const outcome = await freshLaunch(ctx, settings, {
    dir,
    desc: title,
    passArgs: [],
  });
  await finishFreshLaunch(ctx, outcome, { settings, dir, provisional: false });
  return outcome.exitCode === 0 ? ExitCode.ok : outcome.exitCode;
}

/** Spec 11.8 step 2: lowercase, spaces to dashes, only letters, digits, `_` and `-`. */
function projectFolderName(title: string): string {
  const name = title.toLowerCase().replace(/\s+/g, "-").replace(/[^a-z0-9_-]/g, "");
  return name === "" || /^-+$/.test(name) ? "project" : name;
}

/** `<cwd>/<name>`, or `<name>(1)`, `<name>(2)`... when taken (spec 11.8 step 3). */
function freeFolder(ctx: AppContext, name: string): string {
  const join = ctx.paths.path.join;
  let candidate = join(ctx.cwd(), name);
  for (let n = 1; pathExists(candidate); n++) candidate = join(ctx.cwd(), `${name}(${n})`);
  return candidate;
}
