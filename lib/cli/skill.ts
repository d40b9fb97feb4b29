/**
 * `claudecm skill install`: install the `/recover` skill for Claude Code.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import type { CommandResult, ContextFactory } from "./program.ts";

/** Register `skill` and its `install` subcommand on the program. */
export function registerSkillCommand(
  program: Command,
  makeContext: ContextFactory,
  result: CommandResult,
): void {
  const skill = program.command("skill").description("Claude Code skills claudecm provides");
  skill
    .command("install")
    .description("install the /recover skill into <claude root>/skills/recover/SKILL.md")
    .option("--print", "print the skill instead of installing it")
    .action(async (options) => {
      const { runSkillInstall } = await import("../app/recover/skill_install.ts");
      result.exitCode = runSkillInstall(makeContext(), { print: options.print === true });
    });
}
