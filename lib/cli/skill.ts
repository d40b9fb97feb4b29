/**
 * `claudecm skill install`: install the `/recover` skill for Claude Code.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { runSkillInstall } from "../app/recover/skill_install.ts";
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
    .action((options) => {
      result.exitCode = runSkillInstall(makeContext(), { print: options.print === true });
    });
}
