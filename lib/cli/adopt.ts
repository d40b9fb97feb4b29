/**
 * `claudecm adopt`: add the sessions Claude Code has that the list does not.
 *
 * @module
 */

import { defineCommand } from "./command.ts";

/** `adopt`. */
export const adoptCommand = defineCommand({
  options: [
    { flags: "--all", description: "add every one, without asking" },
    { flags: "--dry-run", description: "show what would be added; write nothing" },
    {
      flags: "--json",
      description: "print machine-readable JSON; never asks (adds only with --all)",
    },
  ],
  helpAfter: "\nLists the sessions under ~/.claude/projects that are not in the list and whose\n" +
    "folder still exists (empty ones and claude -p calls are left out), with their\n" +
    "title, folder, last activity and size. In a terminal, pick numbers or 'all'.\n" +
    "Added rows go below the existing ones, newest first, named by the session's\n" +
    "custom title, else Claude's title, else its first prompt. Running it again adds\n" +
    "nothing twice.\n\n" +
    "Exit codes: 0 ok, 1 failure, 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runAdopt }, ctx] = await Promise.all([import("../app/adopt/adopt.ts"), makeContext()]);
    return await runAdopt(ctx, {
      all: input.flag("all"),
      dryRun: input.flag("dryRun"),
      json: input.flag("json"),
    });
  },
});
