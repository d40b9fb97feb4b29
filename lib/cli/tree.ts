/**
 * `claudecm tree [session]`: how sessions came of one another.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { ExitCode } from "../core/errors.ts";

/** `tree`. */
export const treeCommand = defineCommand({
  arguments: [
    {
      name: "[session]",
      description: "its number in `claudecm list`, its session id, or its saved name",
    },
  ],
  options: [{ flags: "--json", description: "print the nodes and typed edges as JSON" }],
  helpAfter:
    "\nA session's family: what it was branched, forked, refreshed or trimmed from, and\n" +
    "what came of it, from claude's own records (forkedFrom in /branch copies,\n" +
    "continued-in lines, subagent fork-context-ref pointers) and claudecm's (forks it\n" +
    "followed, --fork-session branches, refreshes, trims, moves between folders).\n" +
    "Each member shows its list number, or archived, not in the list, kept only by\n" +
    "the vault, set aside in the backup folder, or deleted. With no session: every\n" +
    "family of more than one member. Reads only.\n\n" +
    `Exit codes: 0 ok, 1 failure, 2 usage error, ${ExitCode.notFound} session not found.\n`,
  run: async (input, makeContext) => {
    const [{ runTree }, ctx] = await Promise.all([
      import("../app/tree/tree.ts"),
      makeContext(),
    ]);
    return runTree(ctx, { session: input.argText("session"), json: input.flag("json") });
  },
});
