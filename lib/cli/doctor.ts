/**
 * `claudecm doctor`: the health report.
 *
 * @module
 */

import { defineCommand } from "./command.ts";

/** `doctor`. */
export const doctorCommand = defineCommand({
  options: [
    { flags: "--json", description: "print the report as JSON, for scripts" },
  ],
  helpAfter:
    "\nReports claude and cmv (path, version, options), cleanupPeriodDays in Claude Code's\n" +
    "settings.json, registry lines that do not parse, registered sessions whose transcript\n" +
    "or folder is gone, whether claude accepts the bypass flag here (root), the machine\n" +
    "name and the paths in use, and a forecast of Claude Code's clean-up: the\n" +
    "cleanupPeriodDays that applies in each registered folder (managed settings, the\n" +
    "folder's .claude/settings.local.json and .claude/settings.json, then yours) and the\n" +
    "sessions it would delete within 7 days. Writes nothing and never prompts.\n\n" +
    "Problems: claude missing or broken; transcripts not protected (settings.json missing,\n" +
    "unusable, or cleanupPeriodDays below 1000); registry unreadable or with lines that do\n" +
    "not parse. Warnings: cmv missing or broken; claude without --session-id or -n;\n" +
    "sessions without a transcript; registered folders that are gone; root where claude\n" +
    "would refuse the bypass flag; a settings layer that lowers the period; sessions that\n" +
    "expire within 7 days.\n\n" +
    "Exit codes: 0 no problems (warnings allowed), 1 at least one problem, 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runDoctor }, ctx] = await Promise.all([
      import("../app/doctor/doctor.ts"),
      makeContext(),
    ]);
    return await runDoctor(ctx, { json: input.flag("json") });
  },
});
