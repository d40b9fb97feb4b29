/**
 * `claudecm export <session>`: a session as Markdown or one HTML page.
 *
 * @module
 */

import { defineCommand } from "./command.ts";
import { ExitCode } from "../core/errors.ts";
import type { ExportFormat } from "../app/export/export.ts";

/** What --format takes; the parser refuses any other (parse_args.ts). */
const EXPORT_FORMATS: readonly ExportFormat[] = ["md", "html"];

/** `export`. */
export const exportCommand = defineCommand({
  arguments: [
    {
      name: "<session>",
      description: "its number in `claudecm list`, its session id, or its saved name",
    },
  ],
  options: [
    { flags: "--format <format>", description: "md (default) or html", choices: EXPORT_FORMATS },
    {
      flags: "-o, --output <file>",
      description: "write to FILE instead of stdout (-o - is stdout, as for other tools)",
      // The usual word for stdout, never a file named "-" in the current folder.
      parse: (value: string): string | null => value === "-" ? null : value,
    },
    { flags: "--force", description: "with -o, replace FILE when it already exists" },
    {
      flags: "--redact",
      description: "replace API keys, private keys, Authorization headers and URL passwords",
    },
    { flags: "--json", description: "with -o, print the result as JSON" },
  ],
  helpAfter: "\nEvery turn in order with who spoke and when: prompts, Claude's text, thinking\n" +
    "(collapsed), each tool call with its input (a command as a code block, an edit as a\n" +
    "diff) and its result (long ones collapsed, with their size), images, and subagent\n" +
    "conversations where they were called. The HTML page is one self-contained file:\n" +
    "no script, nothing fetched from the network, light and dark, printable.\n" +
    "A session claude deleted is read from the vault. Lines that cannot be read are\n" +
    "skipped and counted. -o writes the whole file or nothing, and never replaces a\n" +
    "file unless --force. --redact says how many strings it replaced.\n\n" +
    "Exit codes: 0 ok, 1 failure, 2 usage error, " +
    `${ExitCode.notFound} session or transcript not found.\n`,
  run: async (input, makeContext) => {
    const [{ runExport }, ctx] = await Promise.all([
      import("../app/export/export.ts"),
      makeContext(),
    ]);
    return await runExport(ctx, {
      session: input.argText("session")!,
      format: input.choice("format", EXPORT_FORMATS),
      output: input.parsed("output") ?? undefined,
      force: input.flag("force"),
      redact: input.flag("redact"),
      json: input.flag("json"),
    });
  },
});
