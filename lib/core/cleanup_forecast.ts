/**
 * What Claude Code's clean-up will delete (issue 20.4, 18.5). Claude Code
 * reads `cleanupPeriodDays` from layered settings, the highest one that sets
 * it winning (2.1.332's source order, lowest first: userSettings,
 * projectSettings, localSettings, flagSettings, policySettings; pinned in
 * tests/real_claude_contract_test.ts): managed settings, then the folder's
 * `.claude/settings.local.json`, its `.claude/settings.json`, then the user's
 * `settings.json`, else 30 days. A clean-up runs in whichever folder claude
 * starts, over every project, so a transcript is at risk under the lowest
 * period among the user layer alone (claude started anywhere else) and each
 * registered folder's layers. Reads only.
 *
 * @module
 */

import type { EnvReader, OsName, Paths } from "./paths.ts";
import { readDirOrEmpty, readRegularFile } from "./fs_checks.ts";
import { compareText } from "./compare_text.ts";

/** Claude Code's period when no layer sets one. */
export const DEFAULT_CLEANUP_DAYS = 30;

/** How far ahead the forecast looks. */
export const FORECAST_DAYS = 7;

/** Where a folder's period comes from. */
export type PeriodSource = "managed" | "local" | "project" | "user" | "default";

/** The period that applies when claude starts in `dir`. */
export interface FolderPeriod {
  dir: string;
  cleanupPeriodDays: number;
  source: PeriodSource;
  /** The settings file that sets it; null for the default. */
  path: string | null;
}

/** A transcript the clean-up would delete within the forecast window. */
export interface ExpiringTranscript {
  sessionId: string;
  /** The registered folder, or null for a session the registry does not know. */
  dir: string | null;
  transcript: string;
  /** ISO time at which it becomes older than the period. */
  expiresAt: string;
  registered: boolean;
}

/** `doctor --json`'s `forecast` (the pinned surface) plus the period it used. */
export interface CleanupForecast {
  folders: FolderPeriod[];
  /** The lowest period of all: what the next clean-up, started anywhere, may apply. */
  cleanupPeriodDays: number;
  expiring: ExpiringTranscript[];
}

/** `CLAUDECM_MANAGED_SETTINGS_DIR` replaces the OS's managed-settings folder (tests). */
export const MANAGED_DIR_ENV = "CLAUDECM_MANAGED_SETTINGS_DIR";

/** The folder of Claude Code's managed settings on `os` (from the 2.1.332 binary). */
export function managedSettingsDir(env: EnvReader, os: OsName): string {
  const override = env(MANAGED_DIR_ENV);
  if (override) return override;
  if (os === "darwin") return "/Library/Application Support/ClaudeCode";
  if (os === "windows") return "C:\\Program Files\\ClaudeCode";
  return "/etc/claude-code";
}

/** Larger than any settings file a person writes: one past it is not read. */
const MAX_SETTINGS_BYTES = 16 * 1024 * 1024;

/** A settings file's `cleanupPeriodDays` when it sets a valid one (a whole number ≥ 1). */
export function periodIn(file: string): number | null {
  let settings: unknown;
  try {
    // A cloned repository's .claude/settings.json may be a link to a pipe or a device.
    const read = readRegularFile(file, MAX_SETTINGS_BYTES);
    if (!("bytes" in read)) return null;
    settings = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch {
    return null;
  }
  if (typeof settings !== "object" || settings === null) return null;
  const days = (settings as Record<string, unknown>).cleanupPeriodDays;
  return typeof days === "number" && Number.isInteger(days) && days >= 1 ? days : null;
}

/** The managed layer's setting: `managed-settings.json`, then its `.d` drop-ins (later wins). */
function managedPeriod(paths: Paths, managedDir: string): FolderPeriod | null {
  const join = paths.path.join;
  const files = [join(managedDir, "managed-settings.json")];
  const dropIns = join(managedDir, "managed-settings.d");
  files.push(
    ...readDirOrEmpty(dropIns).filter((e) => e.name.endsWith(".json")).map((e) => e.name).sort()
      .map((name) => join(dropIns, name)),
  );
  let found: FolderPeriod | null = null;
  for (const file of files) {
    const days = periodIn(file);
    if (days !== null) found = { dir: "", cleanupPeriodDays: days, source: "managed", path: file };
  }
  return found;
}

/** The period for claude started in `dir` (null: anywhere without project settings). */
export function folderPeriod(
  paths: Paths,
  dir: string | null,
  options: { managedDir: string },
): FolderPeriod {
  const join = paths.path.join;
  const managed = managedPeriod(paths, options.managedDir);
  if (managed !== null) return { ...managed, dir: dir ?? "" };
  const layers: [PeriodSource, string][] = dir === null ? [] : [
    ["local", join(dir, ".claude", "settings.local.json")],
    ["project", join(dir, ".claude", "settings.json")],
  ];
  layers.push(["user", paths.settingsFile]);
  for (const [source, path] of layers) {
    const days = periodIn(path);
    if (days !== null) return { dir: dir ?? "", cleanupPeriodDays: days, source, path };
  }
  return { dir: dir ?? "", cleanupPeriodDays: DEFAULT_CLEANUP_DAYS, source: "default", path: null };
}

/**
 * The forecast for `registered` sessions' folders: each folder's period, and
 * every transcript under the projects root (registered or not) that the
 * lowest period would delete before `now` + 7 days.
 */
export function cleanupForecast(
  paths: Paths,
  registered: { guid: string; dir: string }[],
  options: { now: Date; managedDir: string },
): CleanupForecast {
  const dirs = [...new Set(registered.map((s) => s.dir))];
  const folders = dirs.map((dir) => folderPeriod(paths, dir, options));
  const anywhere = folderPeriod(paths, null, options);
  const lowest = Math.min(anywhere.cleanupPeriodDays, ...folders.map((f) => f.cleanupPeriodDays));
  const dirOf = new Map(registered.map((s) => [s.guid, s.dir]));
  const horizon = options.now.getTime() + FORECAST_DAYS * DAY_MS;
  const expiring: ExpiringTranscript[] = [];
  for (const project of readDirOrEmpty(paths.projectsDir)) {
    if (!project.isDirectory) continue;
    const folder = paths.path.join(paths.projectsDir, project.name);
    for (const entry of readDirOrEmpty(folder)) {
      if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
      const transcript = paths.path.join(folder, entry.name);
      let mtime: number;
      try {
        mtime = Deno.statSync(transcript).mtime?.getTime() ?? options.now.getTime();
      } catch {
        continue;
      }
      const expiresAt = mtime + lowest * DAY_MS;
      if (expiresAt > horizon) continue;
      const sessionId = entry.name.slice(0, -".jsonl".length);
      const dir = dirOf.get(sessionId) ?? null;
      const at = new Date(expiresAt).toISOString();
      expiring.push({ sessionId, dir, transcript, expiresAt: at, registered: dir !== null });
    }
  }
  expiring.sort((a, b) => compareText(a.expiresAt, b.expiresAt));
  return { folders, cleanupPeriodDays: lowest, expiring };
}

const DAY_MS = 24 * 60 * 60 * 1000;
