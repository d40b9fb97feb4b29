/**
 * `claudecm skeleton <guid|path>`: write a session's refresh skeleton and
 * filtered transcript.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { ExitCode } from "../core/errors.ts";

/** `skeleton`. */
export const skeletonCommand = defineCommand({
  arguments: [
    {
      name: "<session>",
      description:
        "a session (number, id or name, as resume takes it; any id in a project folder) or a .jsonl path",
    },
  ],
  options: [
    {
      flags: "--desc <text>",
      description: "the title of the skeleton (default: the registered name)",
    },
    { flags: "--out <dir>", description: "where the two files go (default: the current folder)" },
    { flags: "--force", description: "replace the two files when they are already there" },
    { flags: "--json", description: "print the two files' paths and sizes as JSON" },
  ],
  helpAfter:
    "\nWrites <guid>-skeleton.md (original intent, files modified and read, lines marked\n" +
    "[important], tool errors, recent context) and <guid>-transcript.md (the conversation\n" +
    "and one line per tool call, no tool output), and prints their paths and sizes.\n" +
    "Nothing else is written; files already there are kept unless --force.\n\n" +
    "Exit codes: 0 ok, 1 failure (e.g. a transcript with no conversation), 2 usage error,\n" +
    `${ExitCode.notFound} session or transcript not found.\n`,
  run: async (input, makeContext) => {
    const [{ runSkeleton }, ctx] = await Promise.all([
      import("../app/skeleton/skeleton.ts"),
      makeContext(),
    ]);
    return runSkeleton(ctx, {
      target: input.argText("session")!,
      desc: input.text("desc"),
      out: input.text("out"),
      force: input.flag("force"),
      json: input.flag("json"),
    });
  },
});
