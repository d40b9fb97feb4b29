/**
 * `claudecm doctor`: the health report.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `doctor` on the program. */
export function registerDoctorCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  program
    .command("doctor")
    .description("check claude, cmv, transcript protection and the registry (read-only)")
    .option("--json", "print the report as JSON, for scripts")
    .addHelpText(
      "after",
      "\nReports claude and cmv (path, version, options), cleanupPeriodDays in Claude Code's\n" +
        "settings.json, registry lines that do not parse, registered sessions whose transcript\n" +
        "or folder is gone, whether claude accepts the bypass flag here (root), the machine\n" +
        "name and the paths in use. Writes nothing and never prompts.\n\n" +
        "Problems: claude missing or broken; transcripts not protected (settings.json missing,\n" +
        "unusable, or cleanupPeriodDays below 1000); registry unreadable or with lines that do\n" +
        "not parse. Warnings: cmv missing or broken; claude without --session-id or -n;\n" +
        "sessions without a transcript; registered folders that are gone; root where claude\n" +
        "would refuse the bypass flag.\n\n" +
        "Exit codes: 0 no problems (warnings allowed), 1 at least one problem, 2 usage error.\n",
    )
    .action(async (options) => {
      const { runDoctor } = await import("../app/doctor/doctor.ts");
      result.exitCode = await runDoctor(makeContext(), { json: options.json === true });
    });
}
