/**
 * `claudecm skill install`: put the `/recover` skill where Claude Code finds
 * it, `<claude root>/skills/recover/SKILL.md`. Idempotent: an identical file
 * is left alone; `--print` shows the file and writes nothing.
 *
 * @module
 */

import { writeFileAtomic } from "../../store/atomic_write.ts";
import type { AppContext } from "../context.ts";
import { safeJson } from "../../core/safe_text.ts";
import { UsageError, UserError } from "../../core/errors.ts";
import { NotRegularFile, readRegularBytes } from "../../core/fs_checks.ts";
import { RECOVER_SKILL } from "./recover_skill.ts";
import { type InstallStatus, sayInstalled } from "./skill_view.ts";

/** Options for {@linkcode runSkillInstall}. */
export interface SkillInstallOptions {
  print?: boolean;
  /** Print `{path, status}` (status: installed, updated or unchanged). */
  json?: boolean;
}

/** Where the recover skill is installed. */
function recoverSkillPath(ctx: AppContext): string {
  return ctx.paths.path.join(ctx.paths.claudeRoot, "skills", "recover", "SKILL.md");
}

/** Install (or print) the recover skill; returns the exit code. */
export function runSkillInstall(ctx: AppContext, options: SkillInstallOptions): number {
  if (options.print && options.json) {
    throw new UsageError("--print prints the skill itself and --json a report: choose one");
  }
  if (options.print) {
    ctx.out.write(RECOVER_SKILL);
    return 0;
  }
  const path = recoverSkillPath(ctx);
  const existing = readText(path);
  const status: InstallStatus = existing === RECOVER_SKILL
    ? "unchanged"
    : existing === undefined
    ? "installed"
    : "updated";
  if (status !== "unchanged") {
    Deno.mkdirSync(ctx.paths.path.dirname(path), { recursive: true });
    writeFileAtomic(path, RECOVER_SKILL);
  }
  if (options.json) ctx.out.line(safeJson({ path, status }, 2));
  else sayInstalled(ctx, { path, status });
  return 0;
}

/** The skill file is a few KB; a larger file is not one claudecm wrote. */
const SKILL_MAX_BYTES = 1024 * 1024;

function readText(path: string): string | undefined {
  try {
    // Only a regular file: a pipe at that name would hang the install.
    return new TextDecoder().decode(readRegularBytes(path, SKILL_MAX_BYTES));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    if (error instanceof NotRegularFile) {
      throw new UserError(`cannot install the recover skill at ${path}: ${error.message}`);
    }
    throw error;
  }
}
