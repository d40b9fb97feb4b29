/**
 * What `claudecm skill install` says of the file it wrote, or left alone.
 *
 * @module
 */

import type { AppContext } from "../context.ts";

/** What the install did to `SKILL.md`. */
export type InstallStatus = "installed" | "updated" | "unchanged";

/** The install's one line, for a person (`--json` prints the status instead). */
export function sayInstalled(
  ctx: AppContext,
  { path, status }: { path: string; status: InstallStatus },
): void {
  if (status === "unchanged") ctx.out.line(`The recover skill is already installed: ${path}`);
  else {
    const verb = status === "installed" ? "Installed" : "Updated";
    ctx.out.line(`${verb} the recover skill: ${path} (use /recover in Claude Code)`, "green");
  }
}
