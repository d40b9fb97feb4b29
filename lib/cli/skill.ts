/**
 * `claudecm skill install`: the Claude Code skills claudecm provides.
 *
 * @module
 */

import { defineCommand, defineSubcommand } from "./command.ts";

/** `skill`, a group: `skill install`. */
export const skillCommand = defineCommand({
  subcommands: [defineSubcommand({
    name: "install",
    description: "install the /recover skill into <claude root>/skills/recover/SKILL.md",
  }, {
    options: [
      { flags: "--print", description: "print the skill instead of installing it" },
      { flags: "--json", description: "print where it was installed, and whether anew, as JSON" },
    ],
    run: async (input, makeContext) => {
      const [{ runSkillInstall }, ctx] = await Promise.all([
        import("../app/skill/skill_install.ts"),
        makeContext(),
      ]);
      return runSkillInstall(ctx, { print: input.flag("print"), json: input.flag("json") });
    },
  })],
});
