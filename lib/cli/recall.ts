/**
 * `claudecm recall`: a verified, status-tagged capsule of a session's prior work.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { RECALL_EXIT } from "../app/recall/defaults.ts";
import { collectSessionIds } from "./option_values.ts";

/** `recall`. */
export const recallCommand = defineCommand({
  arguments: [
    {
      name: "[session]",
      description:
        "a session (number, id or name, as resume takes it), a transcript (.jsonl) path, or a session folder",
    },
  ],
  options: [
    {
      flags: "--last",
      description:
        "recall the newest session of the folder that is not live (as recover ranks them)",
    },
    {
      flags: "--cwd <dir>",
      description:
        "the folder the session worked in (default: the one it recorded, else the current one)",
    },
    {
      flags: "--scope <hint>",
      description: "only records about this file, folder, module or tag (edit, commit, blocked...)",
    },
    {
      flags: "--exclude <id>",
      description:
        "with --last: leave this session out; repeatable ($CLAUDE_CODE_SESSION_ID always is)",
      parse: collectSessionIds,
    },
    { flags: "--json", description: "print the capsule (or the failure) as JSON" },
  ],
  helpAfter:
    "\nPrints a capsule: every tool call of the session paired with its result (files written,\n" +
    "edited and removed, commands, tests, commits, reads, the todo list), each checked against\n" +
    "the live folder and git and tagged completed, in-progress, blocked or diverged; one next\n" +
    "move; and every divergence (a scope narrows the records, never the divergences).\n" +
    "Writes nothing; git is only queried.\n\n" +
    "Exit codes: 0 capsule printed, 1 failure (git missing, unreadable file), 2 usage error,\n" +
    `${RECALL_EXIT["session-not-found"]} session-not-found, ` +
    `${
      RECALL_EXIT["transcript-parse-failure"]
    } transcript-parse-failure (a corrupt line; a half-written\n` +
    "last line is a crash, not a failure), " +
    `${RECALL_EXIT["no-recoverable-state"]} no-recoverable-state (no work recorded, or none in\n` +
    'the scope). With --json a failure prints {"status": "<code>", ...} on stdout too.\n',
  run: async (input, makeContext) => {
    const [{ runRecall }, ctx] = await Promise.all([
      import("../app/recall/recall.ts"),
      makeContext(),
    ]);
    return runRecall(ctx, {
      session: input.argText("session"),
      last: input.flag("last"),
      cwd: input.text("cwd"),
      scope: input.text("scope"),
      exclude: input.list("exclude"),
      json: input.flag("json"),
    });
  },
});
