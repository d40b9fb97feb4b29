/**
 * How a move plan reads: on the terminal (the plan, before the question or
 * as the dry run) and as `--json`.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { FileMove, MovePlan } from "./move_plan.ts";
import { formatSize } from "../../core/format.ts";
import { projectDirFor } from "../../core/paths.ts";
import { projectKey } from "../../core/project_key.ts";
import { safeJson } from "../../core/safe_text.ts";
import { historyFileOf } from "../../store/history_store.ts";

const LABELS: Record<FileMove["kind"], string> = {
  transcript: "transcript",
  sidecar: "session folder",
  memory: "memory",
  vault: "vault copy",
  stamped: "transcript",
};

/** Print the plan: every file with its size, every row, every settings entry. */
export function printPlan(ctx: AppContext, plan: MovePlan): void {
  const out = ctx.out;
  out.line(`  Move what claude and claudecm keep about ${plan.from}`);
  out.line(`  to ${plan.to}:`);
  const renamed = plan.files.filter((file) => file.kind !== "stamped");
  const bytes = renamed.reduce((sum, file) => sum + file.bytes, 0);
  out.line();
  out.line(`  Files: ${renamed.length} (${formatSize(bytes)}), renamed, not rewritten`);
  for (const file of renamed) {
    out.line(`    ${LABELS[file.kind]}  ${file.from}  ->  ${file.to}  (${formatSize(file.bytes)})`);
  }
  printStaying(ctx, plan);
  printStalePaths(ctx, plan);
  out.line(`  Rows in sessions.txt: ${plan.rows.length}`);
  for (const row of plan.rows) {
    out.line(`    ${row.desc}${row.archived ? " (archived)" : ""}  ${row.from}  ->  ${row.to}`);
  }
  out.line(`  Settings in ${ctx.paths.claudeJsonFile}: ${plan.settings.length}`);
  for (const entry of plan.settings) out.line(`    ${entry.from}  ->  ${entry.to}`);
  for (const entry of plan.keptSettings) {
    out.line(`    ${entry.from}  kept: ${entry.to} already has its own settings`, "yellow");
  }
  out.line(`  Prompt history lines in ${historyFileOf(ctx.paths)}: ${plan.historyLines}`);
}

/**
 * What stays where it is: the transcripts in claude's one folder of every
 * project (CLAUDE_CODE_PROJECT_DIR_NAME), and the files of folders whose
 * project key does not change; their transcripts get only claude's
 * `relocated` record.
 */
export function printStaying(ctx: AppContext, plan: MovePlan): void {
  const stamped = new Map<string, number>();
  for (const file of plan.files) {
    if (file.kind !== "stamped") continue;
    const folder = ctx.paths.path.dirname(file.from);
    stamped.set(folder, (stamped.get(folder) ?? 0) + 1);
  }
  const record = "claude's relocated record naming the new folder, as claude's /cd writes it";
  const name = ctx.paths.projectDirName;
  const shared = name === undefined ? undefined : ctx.paths.path.join(ctx.paths.projectsDir, name);
  if (shared !== undefined && stamped.has(shared)) {
    ctx.out.line(
      `  ${stamped.get(shared)} transcript(s) stay in ${shared}, claude's one folder of every ` +
        `project (CLAUDE_CODE_PROJECT_DIR_NAME): each gets ${record}`,
      "yellow",
    );
  }
  for (const folder of plan.sameKey) {
    const key = projectDirFor(ctx.paths, folder.to);
    const count = key === shared ? 0 : stamped.get(key) ?? 0;
    ctx.out.line(
      `  ${folder.from} and ${folder.to} share the project key ${projectKey(folder.to)}: ` +
        "their files stay where they are, where claude finds them from either" +
        (count > 0 ? `; ${count} transcript(s) there get ${record}` : ""),
      "yellow",
    );
  }
}

/** What the move cannot carry: paths in sessions' lines into the `<guid>/` folders that move. */
export function printStalePaths(ctx: AppContext, plan: MovePlan): void {
  if (plan.stalePaths.length === 0) return;
  const lines = plan.stalePaths.reduce((sum, stale) => sum + stale.lines, 0);
  ctx.out.line(
    `  ${lines} line(s) of ${plan.stalePaths.length} session(s) name files in a session ` +
      "folder by its old path (tool output claude saved, a subagent's transcript): after the " +
      "move those paths no longer resolve, as after claude's own /cd; the files are in the " +
      "new folder",
    "yellow",
  );
}

/** The plan and what became of it, for `--json`. */
export function planJson(plan: MovePlan, status: "moved" | "planned" | "nothing"): string {
  const { from, to, files, rows, settings, keptSettings, historyLines, sameKey, stalePaths } = plan;
  const sharedKeys = sameKey.map((folder) => ({ ...folder, key: projectKey(folder.to) }));
  return safeJson(
    {
      status,
      from,
      to,
      files,
      rows,
      settings,
      keptSettings,
      historyLines,
      sharedKeys,
      stalePaths,
    },
    2,
  );
}
