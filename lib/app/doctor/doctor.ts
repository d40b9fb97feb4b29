/**
 * `claudecm doctor`: a health report. Are claude and cmv there and working,
 * are transcripts protected from Claude Code's auto-delete, does the registry
 * parse and do its sessions still have their transcripts and folders, where
 * is the state, and would claude accept the bypass flag here.
 *
 * Read-only (DESIGN.md section 1): no bootstrap, no backup, no settings edit,
 * no feature cache, no prompt. Each finding is a problem (claudecm cannot
 * work, or transcripts are at risk: exit 1) or a warning (claudecm works,
 * degraded, or a loss already happened that doctor cannot undo: exit 0).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { hostnameFallback, readMachineName } from "../bootstrap/bootstrap.ts";
import {
  type AddFinding,
  type CheckStatus,
  type Finding,
  type Section,
  statusOf,
} from "./doctor_model.ts";
import { checkPermissions, type PermissionsCheck } from "./doctor_permissions.ts";
import { checkRegistry, type RegistryCheck } from "./doctor_registry.ts";
import { checkTempFiles, type TempFilesCheck } from "./doctor_temps.ts";
import {
  checkClaude,
  checkCmv,
  checkRunAs,
  type ClaudeCheck,
  type RunAsCheck,
  type ToolCheck,
} from "./doctor_tools.ts";
import { checkForecast, type DoctorForecast } from "./doctor_forecast.ts";
import { renderDoctorReport } from "./doctor_view.ts";
import { isProtectedPeriod, PROTECTED_CLEANUP_DAYS, readSettings } from "../bootstrap/settings.ts";
import { ExitCode } from "../../core/errors.ts";
import { readDirIfPresent, readFailure } from "../../core/fs_checks.ts";
import type { Registry } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { type RunAsFacts, runAsFacts } from "../../platform/run_as.ts";
import { safeJson } from "../../core/safe_text.ts";

/** Transcript protection in Claude Code's settings.json (spec 4 step 4). */
export interface SettingsCheck {
  status: CheckStatus;
  path: string;
  exists: boolean;
  /** Strict JSON object, as Claude Code requires. */
  parseable: boolean;
  /** The value when it is a number; null when unset or not a number. */
  cleanupPeriodDays: number | null;
  /** At least 1000: transcripts are kept. */
  protected: boolean;
  /** Why the file cannot be used; null when it can. */
  error: string | null;
}

/** Where claudecm keeps and looks for state. */
export interface DoctorPaths {
  cmHome: string;
  claudeRoot: string;
  projectsDir: string;
  settingsFile: string;
  registryFile: string;
  backupDir: string;
  quarantineRoot: string;
  vaultDir: string;
}

/** Everything doctor found; `doctor --json` prints it as is. */
export interface DoctorReport {
  /** No problems (warnings allowed): the exit code is 0. */
  ok: boolean;
  claude: ClaudeCheck;
  cmv: ToolCheck;
  settings: SettingsCheck;
  registry: RegistryCheck;
  runAs: RunAsCheck;
  /** What Claude Code's clean-up will delete, and each folder's period. */
  forecast: DoctorForecast;
  permissions: PermissionsCheck;
  /** What killed claudecm runs left half written, with their size. */
  tempFiles: TempFilesCheck;
  /** The saved machine name; null when none is saved yet. */
  machineName: string | null;
  /** What is used while no machine name is saved. */
  hostname: string;
  paths: DoctorPaths;
  /** Everything wrong, in report order. */
  findings: Finding[];
  /** `section: message` of each problem finding (any makes the exit code 1). */
  problems: string[];
  /** `section: message` of each warning finding. */
  warnings: string[];
}

/** Options for {@linkcode runDoctor}. */
export interface DoctorOptions {
  json: boolean;
  /** The run-as facts; by default those of this process. */
  runAsFacts?: RunAsFacts;
}

/** Print the health report; returns 0 when there is no problem, 1 otherwise. */
export async function runDoctor(ctx: AppContext, options: DoctorOptions): Promise<number> {
  const report = await collectDoctorReport(ctx, options);
  if (options.json) ctx.out.line(safeJson(report, 2));
  else for (const line of renderDoctorReport(report)) ctx.out.line(line.text, line.colour);
  return report.ok ? ExitCode.ok : ExitCode.failure;
}

/** Run every check. Reads only; a missing or broken tool is reported, never thrown. */
export async function collectDoctorReport(
  ctx: AppContext,
  options: Pick<DoctorOptions, "runAsFacts"> = {},
): Promise<DoctorReport> {
  const findings: Finding[] = [];
  const add = (section: Section): AddFinding => (severity, message) => {
    findings.push({ section, severity, message });
  };
  const claude = await checkClaude(ctx, add("claude"));
  const cmv = await checkCmv(ctx, add("cmv"));
  const settings = await checkSettings(ctx, add("settings"));
  const registry = checkRegistry(ctx, add);
  const permissions = checkPermissions(ctx, add("permissions"));
  const runAs = checkRunAs(ctx, options.runAsFacts ?? runAsFacts(ctx.env), add("runAs"));
  const forecast = checkForecast(ctx, registryOrNull(ctx), add("forecast"));
  checkVaultFolder(ctx, add("forecast"));
  const tempFiles = checkTempFiles(ctx, add("tempFiles"));
  const status = (...sections: Section[]): CheckStatus => statusOf(findings, ...sections);
  const { paths } = ctx;
  const messages = (severity: Finding["severity"]) =>
    findings.filter((f) => f.severity === severity).map((f) => `${f.section}: ${f.message}`);
  const problems = messages("problem");
  return {
    ok: problems.length === 0,
    claude: { ...claude, status: status("claude") },
    cmv: { ...cmv, status: status("cmv") },
    settings: { ...settings, status: status("settings") },
    registry: { ...registry, status: status("registry", "transcripts", "folders") },
    runAs: { ...runAs, status: status("runAs") },
    forecast,
    permissions: { ...permissions, status: status("permissions") },
    tempFiles: { status: status("tempFiles"), ...tempFiles },
    machineName: readMachineName(ctx),
    hostname: hostnameFallback(ctx),
    paths: {
      cmHome: paths.cmHome,
      claudeRoot: paths.claudeRoot,
      projectsDir: paths.projectsDir,
      settingsFile: paths.settingsFile,
      registryFile: paths.registryFile,
      backupDir: paths.backupDir,
      quarantineRoot: paths.quarantineRoot,
      vaultDir: paths.vaultDir,
    },
    findings,
    problems,
    warnings: messages("warning"),
  };
}

/** A vault that cannot be read keeps and restores nothing: a problem, said with its fix. */
function checkVaultFolder(ctx: AppContext, add: AddFinding): void {
  try {
    readDirIfPresent(ctx.paths.vaultDir);
  } catch (error) {
    add(
      "problem",
      `${readFailure(ctx.paths.vaultDir, error)}; until then the vault keeps and restores nothing`,
    );
  }
}

function registryOrNull(ctx: AppContext): Registry | null {
  try {
    return readRegistry(ctx.paths);
  } catch {
    return null; // checkRegistry reports why.
  }
}

async function checkSettings(ctx: AppContext, add: AddFinding): Promise<SettingsCheck> {
  const path = ctx.paths.settingsFile;
  const read = await readSettings(ctx.paths);
  const check: SettingsCheck = {
    status: "ok",
    path,
    exists: read.state !== "missing",
    parseable: read.state === "parsed",
    cleanupPeriodDays: null,
    protected: false,
    error: null,
  };
  if (read.state === "missing") {
    add(
      "problem",
      `${path} does not exist, so Claude Code deletes transcripts after 30 days: run ` +
        `claudecm once, which creates it, or create it containing ` +
        `{"cleanupPeriodDays": ${PROTECTED_CLEANUP_DAYS}}`,
    );
    return check;
  }
  if (read.state === "unusable") {
    check.error = `${path} ${read.reason}`;
    add(
      "problem",
      `${check.error}; a settings.json with comments or invalid JSON is skipped by Claude Code ` +
        "too, so it deletes transcripts after 30 days: fix the file, then run claudecm once to " +
        "protect transcripts",
    );
    return check;
  }
  const days = read.cleanupPeriodDays;
  if (typeof days === "number") check.cleanupPeriodDays = days;
  check.protected = isProtectedPeriod(days);
  if (check.protected) return check;
  const fix = "run claudecm once to protect transcripts";
  if (days === undefined) {
    add(
      "problem",
      `cleanupPeriodDays is not set, so Claude Code deletes transcripts after 30 days: ${fix}`,
    );
  } else if (typeof days === "number" && Number.isInteger(days) && days >= 1) {
    add(
      "problem",
      `cleanupPeriodDays is ${days}, so Claude Code deletes transcripts after ${days} days: ${fix}`,
    );
  } else {
    add(
      "problem",
      `cleanupPeriodDays is ${JSON.stringify(days)}, not a positive whole number: ${fix}`,
    );
  }
  return check;
}
