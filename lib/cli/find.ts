/**
 * `claudecm find TERM...`: search every session's text, resume a hit.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { DEFAULT_FIND_LIMIT } from "../app/find/defaults.ts";
import { collectChoices, parsePositiveInt, parseSinceOption } from "./option_values.ts";
import type { FindRole } from "../app/find/find.ts";

/** What --role takes. */
const ROLES: readonly FindRole[] = ["user", "assistant", "tool"];

/** `--role a,b --role c` → `[a, b, c]`, each one of {@linkcode ROLES}. */
const collectRoles = collectChoices(ROLES);

/** `find`. */
export const findCommand = defineCommand({
  arguments: [
    {
      name: "<terms...>",
      description: "words that must all appear; a quoted phrase; word* for a prefix",
    },
  ],
  options: [
    {
      flags: "--role <role>",
      description: "only text from user, assistant or tool (calls); repeatable",
      parse: collectRoles,
      choices: ROLES,
    },
    { flags: "--project <dir>", description: "only sessions of this folder" },
    {
      flags: "--since <when>",
      description:
        "only text written since: 7d, 24h, 30m, 2w, a date (2026-11-01) or a date and time (2026-11-01T14:05)",
      parse: parseSinceOption,
    },
    {
      flags: "--limit <n>",
      description: `show at most N sessions (default ${DEFAULT_FIND_LIMIT})`,
      parse: parsePositiveInt,
    },
    { flags: "--tool-output", description: "search what tools answered too (left out by default)" },
    {
      flags: "--regex",
      description: "the terms are one regular expression, case-sensitive; scans without the index",
    },
    { flags: "-i, --ignore-case", description: "--regex ignores case (words always do)" },
    { flags: "--no-index", description: "scan the transcripts without the index (writes nothing)" },
    { flags: "--json", description: "print machine-readable JSON; never asks" },
  ],
  helpAfter:
    "\nSearches user and assistant text and tool calls (commands, file paths, patterns)\n" +
    "in every transcript under ~/.claude/projects, subagents included. Results are\n" +
    "sessions, best first (relevance weighted by recency), with up to 3 matches each.\n" +
    "In a terminal, type a result's number to resume it; a session not in the list is\n" +
    "added first.\n\n" +
    "The index lives in ~/.claudecm/find-index.db. It is brought up to date before\n" +
    "every search (only new bytes are read) and is safe to delete. Tool output is\n" +
    "not indexed: --tool-output reads it, whole, from the transcripts (slower). Of a\n" +
    "tool call, its first 4 KB is searched. Words ignore case and accents; without\n" +
    "the index, a word typed without accents finds only text without them (type\n" +
    "café to find café and cafe). --regex matches case-sensitively unless -i is given.\n\n" +
    "Examples:\n" +
    "  claudecm find migrate schema          sessions that mention both words\n" +
    '  claudecm find "connection refused"    an exact phrase\n' +
    "  claudecm find 'deploy*' --since 7d    a prefix, this week only\n" +
    "  claudecm find pytest --role tool      only in tool calls\n" +
    "  claudecm find --regex -i 'err_[a-z]+'  a regular expression, ignoring case\n\n" +
    "Exit codes: 0 ok (also when nothing matches), 1 failure, 2 usage error.\n",
  run: async (input, makeContext) => {
    const [{ runFind }, ctx] = await Promise.all([import("../app/find/find.ts"), makeContext()]);
    return await runFind(ctx, {
      terms: input.argList("terms"),
      role: input.parsed("role"),
      project: input.text("project"),
      since: input.parsed("since"),
      limit: input.number("limit"),
      json: input.flag("json"),
      index: input.flag("index"),
      regex: input.flag("regex"),
      ignoreCase: input.flag("ignoreCase"),
      toolOutput: input.flag("toolOutput"),
    });
  },
});
