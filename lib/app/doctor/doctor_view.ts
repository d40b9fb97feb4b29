/**
 * How `claudecm doctor` shows its report to a person: one line a check with
 * its status word (ok / warning / problem), the details under it, and under
 * those what to do about each finding; then the paths and a summary.
 *
 * @module
 */

import type { DoctorReport } from "./doctor.ts";
import { type CheckStatus, type Section, statusOf } from "./doctor_model.ts";
import type { ToolCheck } from "./doctor_tools.ts";
import { permissionsSummary } from "./doctor_permissions.ts";
import type { MissingTranscript, SessionRef } from "./doctor_registry.ts";
import type { ClaudeFeatures } from "../../platform/claude_features.ts";
import type { Colour } from "../../ui/output.ts";
import { formatSize } from "../../core/format.ts";

/** One line of the report and its colour (none for plain text). */
export interface ReportLine {
  text: string;
  colour?: Colour;
}

const LABEL_WIDTH = 14;
const STATUS_WIDTH = 9;
const DETAIL_INDENT = " ".repeat(2 + LABEL_WIDTH + STATUS_WIDTH);

const STATUS_COLOUR: Record<CheckStatus, Colour | undefined> = {
  ok: undefined,
  warning: "yellow",
  problem: "red",
};

const FEATURE_FLAGS: Record<keyof ClaudeFeatures, string> = {
  sessionId: "--session-id",
  name: "-n/--name",
  forkSession: "--fork-session",
  noSessionPersistence: "--no-session-persistence",
};

/** The report as lines, two-space indented (spec 13). */
export function renderDoctorReport(report: DoctorReport): ReportLine[] {
  const lines: ReportLine[] = [{ text: "" }, { text: "  === claudecm doctor ===" }, { text: "" }];
  const check = (label: string, section: Section, summary: string, details: string[] = []) => {
    const status = statusOf(report.findings, section);
    lines.push({
      text: `  ${label.padEnd(LABEL_WIDTH)}${status.padEnd(STATUS_WIDTH)}${summary}`,
      colour: STATUS_COLOUR[status],
    });
    const advice = report.findings.filter((f) => f.section === section).map((f) => f.message);
    for (const text of [...details, ...advice]) lines.push({ text: DETAIL_INDENT + text });
  };
  const { claude, cmv, registry, runAs } = report;
  check("claude", "claude", toolSummary(claude, "CLAUDECM_CLAUDE"), featureLines(claude.features));
  check("cmv", "cmv", toolSummary(cmv, "CLAUDECM_CMV"));
  check("settings", "settings", settingsSummary(report));
  check(
    "registry",
    "registry",
    registrySummary(report),
    registry.malformedLines.flatMap((l) => [
      `line ${l.lineNumber}: ${l.text}  (${l.reason})`,
      ...l.sessionId === null ? [] : [
        l.vaulted
          ? `  it names session ${l.sessionId}: the vault keeps its transcript until the line ` +
            "is fixed or deleted"
          : `  it names session ${l.sessionId}: the vault has no transcript of it (none found, ` +
            "or not synced yet: claudecm vault sync)",
      ],
    ]),
  );
  check("transcripts", "transcripts", transcriptSummary(report), [
    ...registry.missingTranscripts.map((m) => `${sessionText(m)}  ${m.guid}  ${m.dir}`),
    ...registry.unreadableTranscripts.map((m) => `${sessionText(m)}  ${m.guid}: ${m.problem}`),
    ...registry.runningWithoutTranscript.map((m) =>
      `${sessionText(m)}  ${m.guid}: running, no message sent yet`
    ),
  ]);
  check(
    "folders",
    "folders",
    registry.missingDirs.length === 0
      ? "every registered folder exists"
      : `${registry.missingDirs.length} registered folder(s) missing`,
    registry.missingDirs.flatMap((d) => [
      `${d.dir}  (${d.sessions.map(sessionText).join(", ")})`,
      `  ${d.moveCommand}`,
    ]),
  );
  check("forecast", "forecast", forecastSummary(report), forecastLines(report));
  check(
    "run as",
    "runAs",
    runAsSummary(report),
    runAs.action === "reexec"
      ? [
        `the paths below are root's; run claudecm doctor as '${runAs.runAsUser}' to check its state`,
      ]
      : [],
  );
  check("permissions", "permissions", permissionsSummary(report.permissions));
  const temps = report.tempFiles;
  check(
    "temp files",
    "tempFiles",
    temps.files.length === 0
      ? "none left by killed runs"
      : `${temps.files.length} left by killed runs (${formatSize(temps.bytes)})`,
    temps.files.map((file) => `${file.path}  (${formatSize(file.bytes)})`),
  );
  const machine = report.machineName ??
    `not set (claudecm asks on its next interactive run; '${report.hostname}' is used until then)`;
  lines.push({
    text: `  ${"machine name".padEnd(LABEL_WIDTH)}${"ok".padEnd(STATUS_WIDTH)}${machine}`,
  });
  lines.push({ text: "" }, { text: "  paths" });
  const { paths } = report;
  for (
    const [label, path] of [
      ["claudecm home", paths.cmHome],
      ["claude root", paths.claudeRoot],
      ["registry", paths.registryFile],
      ["backups", paths.backupDir],
      ["quarantine", paths.quarantineRoot],
      ["vault", paths.vaultDir],
    ]
  ) lines.push({ text: `    ${label.padEnd(LABEL_WIDTH + 2)}${path}` });
  lines.push({ text: "" }, summaryLine(report));
  return lines;
}

function forecastSummary({ forecast }: DoctorReport): string {
  const days = forecast.cleanupPeriodDays;
  return forecast.expiring.length === 0
    ? `no transcript expires within 7 days (clean-up after ${days} days)`
    : `${forecast.expiring.length} transcript(s) expire within 7 days`;
}

function forecastLines({ forecast }: DoctorReport): string[] {
  return forecast.folders.map((f) =>
    `${f.dir}: cleanupPeriodDays ${f.cleanupPeriodDays} (${f.source}${f.path ? `: ${f.path}` : ""})`
  );
}

function toolSummary(tool: ToolCheck, override: string): string {
  if (!tool.found) return "not found";
  const source = tool.source === "override"
    ? `from ${override}`
    : tool.source === "path"
    ? "on PATH"
    : "at its default location";
  return `${tool.version ?? "version unknown"}, ${tool.path} (${source})`;
}

function featureLines(features: ClaudeFeatures | null): string[] {
  if (features === null) return [];
  const keys = Object.keys(FEATURE_FLAGS) as Array<keyof ClaudeFeatures>;
  const has = keys.filter((key) => features[key]).map((key) => FEATURE_FLAGS[key]);
  const lacks = keys.filter((key) => !features[key]).map((key) => FEATURE_FLAGS[key]);
  return [
    `supports: ${has.length > 0 ? has.join(", ") : "none of the options claudecm uses"}`,
    ...(lacks.length > 0 ? [`lacks: ${lacks.join(", ")}`] : []),
  ];
}

function settingsSummary({ settings }: DoctorReport): string {
  if (!settings.exists) return "no settings.json";
  if (!settings.parseable) return "settings.json cannot be used";
  const days = settings.cleanupPeriodDays ?? "not set";
  return `cleanupPeriodDays ${days} in ${settings.path}` +
    (settings.protected ? ": transcripts are kept" : "");
}

function registrySummary({ registry }: DoctorReport): string {
  if (registry.error !== null) return "cannot be read";
  if (!registry.exists) {
    return `${registry.path} not created yet (claudecm creates it on first run)`;
  }
  return `${registry.sessions} session(s), ${registry.archived} archived, in ${registry.path}`;
}

function transcriptSummary({ registry }: DoctorReport): string {
  const total = registry.sessions + registry.archived;
  const missing = registry.missingTranscripts.length;
  const unreadable = registry.unreadableTranscripts.length;
  const parts = [
    ...(missing > 0 ? [`${missing} of ${total} registered session(s) have no transcript`] : []),
    ...(unreadable > 0 ? [`${unreadable} cannot be read`] : []),
  ];
  if (parts.length > 0) return parts.join("; ");
  return total === 0 ? "no registered sessions" : `all ${total} registered session(s) have one`;
}

function runAsSummary({ runAs }: DoctorReport): string {
  const flags = runAs.permissionArgs.length > 0
    ? `claude gets ${runAs.permissionArgs.join(" ")}`
    : "claude gets no permission flag";
  if (!runAs.root) return `not root; ${flags}`;
  if (runAs.action === "reexec") {
    return `root; claudecm re-runs itself as '${runAs.runAsUser}', and ${flags}`;
  }
  return runAs.bypassAllowed ? `root with IS_SANDBOX=1; ${flags}` : `root; ${flags}`;
}

function sessionText(ref: SessionRef | MissingTranscript): string {
  const number = `${ref.archived ? "archived " : ""}#${ref.number}`;
  return ref.desc === "" ? number : `${number} ${ref.desc}`;
}

function summaryLine(report: DoctorReport): ReportLine {
  const problems = report.problems.length;
  const warnings = report.warnings.length;
  if (problems > 0) {
    return { text: `  ${problems} problem(s), ${warnings} warning(s).`, colour: "red" };
  }
  if (warnings > 0) return { text: `  No problems; ${warnings} warning(s).`, colour: "yellow" };
  return { text: "  All checks ok.", colour: "green" };
}
