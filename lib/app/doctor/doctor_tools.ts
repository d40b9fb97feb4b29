/**
 * doctor's checks of the external tools: claude and cmv (found where, which
 * version, which of claude's options), and how claude would be started here
 * (as root it refuses the bypass flag; DESIGN.md 4 and 5.6). A missing or
 * broken tool is a finding, never an exception.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { AddFinding, CheckStatus } from "./doctor_model.ts";
import { errorMessage, InterruptedError } from "../../core/errors.ts";
import type { ClaudeFeatures } from "../../platform/claude_features.ts";
import { locateTool, type ToolFound } from "../../platform/find_executable.ts";
import { readPermissionsSetting } from "../launch/permissions.ts";
import { decideRunAs, permissionArgs, type RunAsFacts, runAsName } from "../../platform/run_as.ts";
import { ToolTimeoutError } from "../../platform/spawn.ts";
import {
  CLAUDE_INSTALL_HINT,
  claudeMissingMessage,
  CMV_INSTALL_HINT,
  cmvMissingNotice,
} from "../../platform/tools.ts";

/** A found (or missing) external tool. */
export interface ToolCheck {
  status: CheckStatus;
  found: boolean;
  path: string | null;
  /** How it was found: the CLAUDECM_* override, PATH, or the spec's default location. */
  source: ToolFound["source"] | null;
  /** `--version` output, trimmed; null when missing or when it failed. */
  version: string | null;
  /** Why it cannot be used, and what to do; null when it can. */
  error: string | null;
}

/** claude, with the options claudecm depends on. */
export interface ClaudeCheck extends ToolCheck {
  /** From `claude --help`; null when claude is missing or broken. */
  features: ClaudeFeatures | null;
}

/** Running as root, and what claude will be started with. */
export interface RunAsCheck {
  status: CheckStatus;
  root: boolean;
  /** The user a root claudecm switches to (CLAUDECM_RUN_AS, default `claude`). */
  runAsUser: string;
  /** `reexec`: claudecm re-runs itself as runAsUser; `stay`: as the current user. */
  action: "stay" | "reexec";
  /** Whether claude will accept `--dangerously-skip-permissions`. */
  bypassAllowed: boolean;
  /** The permission flags claudecm passes to claude. */
  permissionArgs: string[];
  notice: string | null;
}

/** Find claude, ask its version and (read-only) its options. */
export async function checkClaude(ctx: AppContext, add: AddFinding): Promise<ClaudeCheck> {
  const located = locateTool("claude", lookupOf(ctx));
  // `features` sits before `error`, where --json has always printed it.
  const { error, ...found } = toolCheckOf(located);
  const check: ClaudeCheck = { ...found, features: null, error };
  if (!located.found) {
    check.error = claudeMissingMessage(located);
    add("problem", check.error);
    return check;
  }
  let failure: unknown = null;
  try {
    const claude = await ctx.tools.claude();
    check.path = claude.path;
    check.version = await claude.version();
    // A claude that cannot say its version is not asked for its help (each probe may hang 30 s).
    if (check.version !== null) check.features = await claude.features({ readOnly: true });
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    failure = error;
  }
  if (check.version === null) {
    check.error = `${probeFailure(`\`${check.path} --version\``, failure)}, so this claude ` +
      `looks broken; ${CLAUDE_INSTALL_HINT}`;
    add("problem", check.error);
  } else if (check.features === null) {
    add(
      "warning",
      `${probeFailure("`claude --help`", failure)}: cannot tell which options this claude has`,
    );
  } else {
    const upgrade = `upgrade claude (${CLAUDE_INSTALL_HINT})`;
    if (!check.features.sessionId) {
      add(
        "warning",
        "this claude has no --session-id, so claudecm registers new sessions by detecting " +
          `them after launch instead of before: ${upgrade}`,
      );
    }
    if (!check.features.name) {
      add("warning", `this claude has no -n/--name, so sessions are not named in it: ${upgrade}`);
    }
  }
  return check;
}

/** What went wrong with a probe: its own timeout message, else `<what> failed (why)`. */
function probeFailure(what: string, error: unknown): string {
  if (error instanceof ToolTimeoutError) return error.message;
  return error === null ? `${what} failed` : `${what} failed (${errorMessage(error)})`;
}

/** Where a tool was found, before anything is asked of it. */
function toolCheckOf(located: ReturnType<typeof locateTool>): ToolCheck {
  return {
    status: "ok",
    found: located.found,
    path: located.found ? located.path : null,
    source: located.found ? located.source : null,
    version: null,
    error: null,
  };
}

/** Find cmv and ask its version. */
export async function checkCmv(ctx: AppContext, add: AddFinding): Promise<ToolCheck> {
  const located = locateTool("cmv", lookupOf(ctx));
  const check = toolCheckOf(located);
  if (!located.found) {
    check.error = cmvMissingNotice(located);
    add("warning", check.error);
    return check;
  }
  let failure: unknown = null;
  try {
    const cmv = await ctx.tools.cmv();
    if (cmv.available) {
      check.path = cmv.path;
      // Where this process is: doctor looks at no folder of its own.
      check.version = await cmv.version({ cwd: undefined });
    }
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    failure = error;
  }
  if (check.version === null) {
    check.error = `${probeFailure(`\`${check.path} --version\``, failure)}, so snapshots, ` +
      `trim, refresh and token counts will likely fail too; ${CMV_INSTALL_HINT}`;
    add("warning", check.error);
  }
  return check;
}

/** What the run-as decision (spec 11.6 Linux notes) would be for this process. */
export function checkRunAs(ctx: AppContext, facts: RunAsFacts, add: AddFinding): RunAsCheck {
  const decision = decideRunAs(facts);
  // After a re-exec claudecm runs as a normal user, whom claude lets bypass.
  const bypassAllowed = decision.action === "reexec" || decision.bypassAllowed;
  const bypass = readPermissionsSetting(ctx).choice === "bypass";
  const args = permissionArgs(ctx.env, bypass && bypassAllowed);
  const notice = decision.action === "stay" ? decision.notice ?? null : null;
  // With a permission mode or prompts of the user's choice, the bypass flag is not missed.
  const modeChosen = Boolean(ctx.env("CLAUDECM_PERMISSION_MODE")?.trim()) || !bypass;
  if (notice !== null && !modeChosen) {
    add("warning", `${notice}; to fix, ${runAsFix(facts)}, or set IS_SANDBOX=1 inside a sandbox`);
  }
  return {
    status: "ok",
    root: facts.uid === 0,
    runAsUser: runAsName(ctx.env),
    action: decision.action,
    bypassAllowed,
    permissionArgs: args,
    notice,
  };
}

/** What makes the re-exec possible, for each reason decideRunAs stays as root. */
function runAsFix(facts: RunAsFacts): string {
  const name = runAsName(facts.env);
  if (facts.user === null) {
    return `create the user '${name}' (or set CLAUDECM_RUN_AS to an existing user)`;
  }
  if (facts.user.uid === 0 || facts.env("CLAUDECM_REEXECED") === "1") {
    return "set CLAUDECM_RUN_AS to a user other than root";
  }
  return "install sudo or runuser";
}

function lookupOf(ctx: AppContext) {
  return { env: ctx.env, os: ctx.os, home: ctx.paths.home };
}
