/**
 * The folder a `--cwd` option names, for the commands that look at one
 * folder's sessions (recover, recall, and find's `--project`).
 *
 * @module
 */

import { UsageError } from "../core/errors.ts";
import { probePath } from "../core/fs_checks.ts";
import type { AppContext } from "./context.ts";

/**
 * A path the user typed, made absolute against the folder claudecm runs in;
 * an empty one (an unset shell variable) is refused. An absolute one needs no
 * cwd: the folder's name may be one Deno cannot give (not UTF-8), which then
 * refuses only what needs it.
 */
export function typedPath(ctx: AppContext, typed: string): string {
  // resolve("") would give the folder claudecm runs in.
  if (typed.trim() === "") {
    throw new UsageError("a folder was expected, and an empty path was given");
  }
  const path = ctx.paths.path;
  return path.isAbsolute(typed) ? path.resolve(typed) : path.resolve(ctx.cwd(), typed);
}

/**
 * `typed` made absolute against the cwd, or the cwd when no `--cwd` was
 * given. A folder that is gone is accepted: its sessions are still under
 * `~/.claude/projects`, and recovering them is the point. A file or a device
 * at that path is a mistake, refused before any session is looked for.
 */
export function folderOption(
  ctx: AppContext,
  typed: string | undefined,
  { option = "--cwd" }: { option?: string } = {},
): string {
  if (typed === undefined) return ctx.cwd();
  const folder = typedPath(ctx, typed);
  const probe = probePath(folder);
  if (probe.kind === "file" || probe.kind === "other") {
    throw new UsageError(`${option} must name a folder, and ${folder} is not one`);
  }
  // A link loop, or a folder on the way that may not be entered: not a folder to look at.
  if (probe.kind === "unreadable") {
    throw new UsageError(`${option}: cannot look at ${folder} (${probe.error})`);
  }
  return folder;
}
