/**
 * `claudecm man`: the manual page (roff, `man(7)` macros) written from the
 * command table (issue 33.6): every command with its synopsis, arguments,
 * options and its own help text, which carries its exit codes. `groff -man
 * -ww` reads it without a warning (tests/man_page_test.ts).
 *
 * @module
 */

import type { CommandSpec } from "./command.ts";
import { argumentShape } from "./parse_args.ts";

/** Text as roff prints it: backslashes escaped, hyphens as `\-`, no line read as a request. */
function roff(text: string): string {
  return text.replace(/\\/g, "\\e").replace(/-/g, "\\-").split("\n")
    .map((line) => /^[.']/.test(line) ? `\\&${line}` : line).join("\n");
}

/** A paragraph of help text: its own line breaks kept (examples, tables), blank lines as `.PP`. */
function block(text: string): string[] {
  const lines: string[] = [];
  for (const paragraph of text.trim().split(/\n\s*\n/)) {
    lines.push(".PP", ".nf", roff(paragraph.replace(/^\n+|\n+$/g, "")), ".fi");
  }
  return lines;
}

function usage(command: CommandSpec, path: readonly string[]): string {
  const parts = ["claudecm", ...path];
  if ((command.options ?? []).length > 0) parts.push("[options]");
  if (command.subcommands !== undefined) parts.push("<command>");
  parts.push(...(command.arguments ?? []).map((argument) => argument.name));
  return parts.join(" ");
}

function commandSection(command: CommandSpec, parent: readonly string[]): string[] {
  const path = [...parent, command.name];
  const lines = [".SS", `.B ${roff(usage(command, path))}`, ".PP", roff(command.description)];
  for (const argument of command.arguments ?? []) {
    lines.push(".TP", `.I ${roff(argumentShape(argument).key)}`, roff(argument.description));
  }
  for (const option of command.options ?? []) {
    lines.push(".TP", `.B ${roff(option.flags)}`, roff(option.description));
  }
  if (command.helpAfter !== undefined) lines.push(...block(command.helpAfter));
  for (const sub of (command.subcommands ?? []).filter((s) => s.hidden !== true)) {
    lines.push(...commandSection(sub, path));
  }
  return lines;
}

/** The whole page, for `program` with every command of `table` loaded (commands.ts `commandTable()`). */
export function manPage(
  program: CommandSpec,
  table: readonly CommandSpec[],
  { version }: { version: string },
): string {
  const visible = table.filter((command) => command.hidden !== true);
  const lines = [
    `.TH CLAUDECM 1 "" "claudecm ${roff(version)}" "User Commands"`,
    ".SH NAME",
    "claudecm \\- session manager for Claude Code",
    ".SH SYNOPSIS",
    ".B claudecm",
    "[\\fIcommand\\fR] [\\fIoptions\\fR] [\\fIarguments\\fR]",
    ".SH DESCRIPTION",
    roff(program.description),
    ...(program.helpAfter === undefined ? [] : block(program.helpAfter)),
    ".SH OPTIONS",
    ...(program.options ?? []).flatMap((option) => [
      ".TP",
      `.B ${roff(option.flags)}`,
      roff(option.description),
    ]),
    ".TP",
    ".B \\-h, \\-\\-help",
    "show help (of a command: claudecm \\fIcommand\\fR \\-\\-help)",
    ".SH COMMANDS",
    ...visible.flatMap((command) => commandSection(command, [])),
    ".SH EXIT STATUS",
    "Each command lists its own exit codes above; all share these:",
    ".TP",
    ".B 0",
    "success",
    ".TP",
    ".B 1",
    "failure",
    ".TP",
    ".B 2",
    "usage error (a command line that does not parse, an unknown command)",
    ".TP",
    ".B 130",
    "cancelled at a question (Ctrl\\-C)",
    ".SH FILES",
    ".TP",
    ".I ~/.claudecm/sessions.txt",
    "the session list (GUID|DIR|DESC|TOKENS)",
    ".TP",
    ".I ~/.claudecm/vault/",
    "the vault: copies that keep every registered session restorable",
    ".SH SEE ALSO",
    ".BR claude (1)",
  ];
  return `${lines.join("\n")}\n`;
}
