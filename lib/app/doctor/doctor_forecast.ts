/**
 * doctor's clean-up forecast (issue 20.4, 18.5): the effective
 * `cleanupPeriodDays` of each registered folder, a warning where a layer
 * lowers it, and the transcripts Claude Code would delete within 7 days,
 * each with its fix. Reads only.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { AddFinding } from "./doctor_model.ts";
import {
  type CleanupForecast,
  cleanupForecast,
  folderPeriod,
  FORECAST_DAYS,
  managedSettingsDir,
} from "../../core/cleanup_forecast.ts";
import { archivedSessions, mainSessions, type Registry } from "../../core/registry.ts";
import { vaultFilesFor } from "../../core/session_copies.ts";
import { pathExists } from "../../core/fs_checks.ts";
import { isProtectedPeriod } from "../bootstrap/settings.ts";

/** `doctor --json`'s `forecast`. */
export type DoctorForecast = CleanupForecast;

/** Compute the forecast and add its findings. */
export function checkForecast(
  ctx: AppContext,
  registry: Registry | null,
  add: AddFinding,
): DoctorForecast {
  const sessions = registry === null
    ? []
    : [...mainSessions(registry), ...archivedSessions(registry)];
  const managedDir = managedSettingsDir(ctx.env, ctx.os);
  const forecast = cleanupForecast(ctx.paths, sessions, { now: ctx.now(), managedDir });
  const base = folderPeriod(ctx.paths, null, { managedDir });
  const anywhere = base.cleanupPeriodDays;
  // Managed settings win over every other layer: one that lowers the period lowers it everywhere.
  if (base.source === "managed" && !isProtectedPeriod(anywhere)) {
    add(
      "warning",
      `${base.path} (managed settings) sets cleanupPeriodDays to ${anywhere}, over your own: ` +
        `Claude Code deletes every project's transcripts older than ${anywhere} days. The vault ` +
        "keeps registered sessions restorable; ask whoever manages this machine to raise it",
    );
  }
  for (const folder of forecast.folders) {
    if (folder.cleanupPeriodDays >= anywhere) continue;
    add(
      "warning",
      `${folder.dir}: ${folder.path} (${folder.source} settings) lowers cleanupPeriodDays to ` +
        `${folder.cleanupPeriodDays}; a claude started there deletes every project's ` +
        `transcripts older than ${folder.cleanupPeriodDays} days: raise it there`,
    );
  }
  if (forecast.expiring.length === 0) return forecast;
  const names = new Map(sessions.map((s) => [s.guid, s.desc]));
  const last = new Date(forecast.expiring.at(-1)!.expiresAt);
  const lowest = [...forecast.folders].sort((a, b) => a.cleanupPeriodDays - b.cleanupPeriodDays)[0];
  const layer = lowest?.cleanupPeriodDays === forecast.cleanupPeriodDays && lowest.path !== null
    ? lowest.path
    : ctx.paths.settingsFile;
  add(
    "warning",
    `${forecast.expiring.length} session(s) expire by ${dayText(last)} ` +
      `(Claude Code's clean-up after ${forecast.cleanupPeriodDays} days, within ${FORECAST_DAYS}; ` +
      `raise cleanupPeriodDays in ${layer}):`,
  );
  for (const item of forecast.expiring) {
    const name = names.get(item.sessionId) ?? item.sessionId;
    const fix = !item.registered
      ? "not registered: keep it with claudecm adopt"
      : pathExists(vaultFilesFor(ctx.paths, { guid: item.sessionId, dir: item.dir! }).transcript)
      ? "the vault keeps it (claudecm restore brings it back)"
      : "not in the vault yet: run claudecm vault sync";
    add("warning", `expires ${dayText(new Date(item.expiresAt))}: ${name} (${fix})`);
  }
  return forecast;
}

/** "Friday 4 Dec", as a person reads a near date. */
function dayText(date: Date): string {
  const weekday = date.toLocaleDateString("en-GB", { weekday: "long" });
  const month = date.toLocaleDateString("en-GB", { month: "short" });
  return `${weekday} ${date.getDate()} ${month}`;
}
