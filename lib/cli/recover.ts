/**
 * `claudecm recover`: what a crashed session was doing, read from its transcript.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { DEFAULT_BUDGET, DEFAULT_LIMIT } from "../app/recover/defaults.ts";
import { ExitCode } from "../core/errors.ts";
import { collectSessionIds, parsePositiveInt } from "./option_values.ts";

/** `recover`. */
export const recoverCommand = defineCommand({
  options: [
    {
      flags: "--json",
      description: "print machine-readable JSON (candidates, or the digest with --session)",
    },
    {
      flags: "--cwd <dir>",
      description:
        "the folder whose sessions to look at (default: the current one; a folder that is gone still has them)",
    },
    {
      flags: "--exclude <id>",
      description:
        "leave this session out; repeatable ($CLAUDE_CODE_SESSION_ID is always left out)",
      parse: collectSessionIds,
    },
    {
      flags: "--limit <n>",
      description: `list at most N candidates (default ${DEFAULT_LIMIT})`,
      parse: parsePositiveInt,
    },
    {
      flags: "--session <session>",
      description: "the session to digest: an id, or a list number or name as resume takes it",
    },
    { flags: "--digest", description: "print the working-state digest of --session" },
    {
      flags: "--budget <chars>",
      description: `cut the digest to CHARS (default ${DEFAULT_BUDGET})`,
      parse: parsePositiveInt,
    },
    {
      flags: "--strict",
      description: "fail on the first malformed transcript line instead of skipping it",
    },
  ],
  helpAfter:
    "\nWithout --json or --session in a terminal, shows the most recent session and its\n" +
    "alternates, asks which to recover, and prints its digest.\n\n" +
    "A session whose transcript cannot be read is named on stderr (and in --json's\n" +
    '"excluded", reason "unreadable"), never left out in silence.\n\n' +
    "Exit codes: 0 ok (also when no prior session exists), 1 failure (also when no\n" +
    "session could be offered because none could be read), 2 usage error,\n" +
    `${ExitCode.notFound} session id invalid or not found.\n`,
  run: async (input, makeContext) => {
    const [{ runRecover }, ctx] = await Promise.all([
      import("../app/recover/recover.ts"),
      makeContext(),
    ]);
    return runRecover(ctx, {
      json: input.flag("json"),
      cwd: input.text("cwd"),
      exclude: input.list("exclude"),
      limit: input.number("limit"),
      session: input.text("session"),
      digest: input.flag("digest"),
      budget: input.number("budget"),
      strict: input.flag("strict"),
    });
  },
});
