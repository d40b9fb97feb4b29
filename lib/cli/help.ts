/**
 * A command's `--help`, laid out as commander lays it out (the layout
 * claudecm has always printed): the usage line, the description, then
 * Arguments, Options and Commands with their descriptions in one column,
 * wrapped at 80 characters, then the command's own text.
 *
 * @module
 */

import type { CommandSpec } from "./command.ts";
import { argumentShape } from "./parse_args.ts";

const HELP_WIDTH = 80;
/** Narrower than this, descriptions are not wrapped at all. */
const MIN_WIDTH_TO_WRAP = 40;
const HELP_OPTION = { term: "-h, --help", description: "show help" };
const HELP_COMMAND = { term: "help [command]", description: "display help for command" };

/** The help of `command`, reached by `path` (command names after `claudecm`). */
export function formatHelp(
  command: CommandSpec,
  { program, path }: { program: string; path: readonly string[] },
): string {
  const args = (command.arguments ?? []).map((argument) => ({
    term: argumentShape(argument).key,
    description: argument.description,
  }));
  const options = [
    ...(command.options ?? []).map((o) => ({ term: o.flags, description: o.description })),
    HELP_OPTION,
  ];
  const subcommands = (command.subcommands ?? []).filter((sub) => sub.hidden !== true);
  const item = (sub: CommandSpec) => ({ term: subcommandTerm(sub), description: sub.description });
  const commands = command.subcommands === undefined
    ? []
    : [...subcommands.filter((sub) => sub.group === undefined).map(item), HELP_COMMAND];
  // Commands easily taken for one another (recover, restore, rescue, recall) are listed together,
  // each with when to use it (issue 31 item 11).
  const groups = [...new Set(subcommands.flatMap((sub) => sub.group ?? []))].map((
    heading,
  ) => [heading, subcommands.filter((sub) => sub.group === heading).map(item)] as const);
  const termWidth = Math.max(
    ...[...args, ...options, ...commands, ...groups.flatMap(([, items]) => items)].map((item) =>
      item.term.length
    ),
  );
  const usage = [program, ...path, "[options]"];
  if (command.subcommands !== undefined) usage.push("[command]");
  usage.push(...(command.arguments ?? []).map((argument) => argument.name));
  const lines = [`Usage: ${usage.join(" ")}`, ""];
  if (command.description !== "") lines.push(boxWrap(command.description, HELP_WIDTH), "");
  for (
    const [heading, items] of [
      ["Arguments:", args],
      ["Options:", options],
      ["Commands:", commands],
      ...groups,
    ] as const
  ) {
    if (items.length === 0) continue;
    lines.push(
      heading,
      ...items.map((item) => formatItem(item, termWidth)),
      "",
    );
  }
  return lines.join("\n") + (command.helpAfter ?? "");
}

/** `list [options]`, `find [options] <terms...>`: a command as its parent's help lists it. */
function subcommandTerm(command: CommandSpec): string {
  if (command.synopsis !== undefined) {
    return command.synopsis === "" ? command.name : `${command.name} ${command.synopsis}`;
  }
  const parts = [command.name];
  if ((command.options ?? []).length > 0) parts.push("[options]");
  parts.push(...(command.arguments ?? []).map((argument) => argument.name));
  return parts.join(" ");
}

function formatItem(
  { term, description }: { term: string; description: string },
  termWidth: number,
): string {
  const remaining = HELP_WIDTH - termWidth - 4;
  const wrapped = remaining < MIN_WIDTH_TO_WRAP ? description : boxWrap(description, remaining);
  return `  ${term.padEnd(termWidth)}  ${wrapped.replace(/\n/g, `\n${" ".repeat(termWidth + 4)}`)}`;
}

/** Wrap at whitespace to `width`, keeping the text's own line breaks. */
function boxWrap(text: string, width: number): string {
  const wrapped: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const chunks = line.match(/\s*\S+/g);
    if (chunks === null) {
      wrapped.push("");
      continue;
    }
    let current = chunks[0];
    for (const chunk of chunks.slice(1)) {
      if (current.length + chunk.length <= width) {
        current += chunk;
      } else {
        wrapped.push(current);
        current = chunk.trimStart();
      }
    }
    wrapped.push(current);
  }
  return wrapped.join("\n");
}
