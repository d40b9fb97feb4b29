/**
 * What completions offer, read from the command table (issue 33.5): each
 * command's path, its options exactly as its `--help` lists them (with
 * `-h, --help`), the kind or choices of each value, and its arguments.
 * The shell scripts (completion_scripts.ts) and the test that compares
 * them with `--help` read this, and nothing else.
 *
 * @module
 */

import type { ArgumentSpec, CommandSpec, OptionSpec, ValueKind } from "./command.ts";

/** An option as completions offer it. */
export interface CompletionOption {
  long: string;
  short?: string;
  description: string;
  /** Takes a value (`--limit <n>`): the next word is that value, not an option or argument. */
  takesValue: boolean;
  kind?: ValueKind;
  choices?: readonly string[];
}

/** A positional argument as completions offer it. */
export interface CompletionArgument {
  name: string;
  kind?: ValueKind;
  choices?: readonly string[];
  /** Takes the rest of the words. */
  variadic: boolean;
}

/** A command (or the program itself, path []) as completions offer it. */
export interface CompletionCommand {
  path: string[];
  description: string;
  options: CompletionOption[];
  arguments: CompletionArgument[];
  /** Its subcommands' names, for a group (`vault`: sync, prune). */
  subcommands: string[];
}

/** `-h, --help`, which every command's help lists last. */
const HELP: CompletionOption = {
  long: "--help",
  short: "-h",
  description: "show help",
  takesValue: false,
};

const FLAGS = /^(?:(-[A-Za-z]), )?(--[a-z][a-z-]*)(?: <([^>]+)>)?$/;

/** Every command of `table` (loaded whole, commands.ts `commandTable()`), the program first. */
export function completionModel(
  program: CommandSpec,
  table: readonly CommandSpec[],
): CompletionCommand[] {
  const visible = table.filter((command) => command.hidden !== true);
  const root: CompletionCommand = {
    path: [],
    description: program.description,
    // The program's own (`-V, --version`), as its help lists them.
    options: [...(program.options ?? []).map(optionOf), HELP],
    arguments: [],
    subcommands: [...visible.map((command) => command.name), "help"],
  };
  return [root, ...visible.flatMap((command) => commandsOf(command, []))];
}

function commandsOf(command: CommandSpec, parent: string[]): CompletionCommand[] {
  const path = [...parent, command.name];
  const subs = (command.subcommands ?? []).filter((sub) => sub.hidden !== true);
  const own: CompletionCommand = {
    path,
    description: command.description,
    options: [...(command.options ?? []).map(optionOf), HELP],
    arguments: (command.arguments ?? []).map(argumentOf),
    subcommands: subs.map((sub) => sub.name),
  };
  return [own, ...subs.flatMap((sub) => commandsOf(sub, path))];
}

function optionOf(option: OptionSpec): CompletionOption {
  const match = FLAGS.exec(option.flags);
  if (match === null) throw new Error(`unsupported option flags: ${option.flags}`);
  const [, short, long, valueName] = match;
  return {
    long,
    short,
    description: option.description,
    takesValue: valueName !== undefined,
    kind: option.kind ?? (valueName === undefined ? undefined : valueKind(valueName)),
    choices: option.choices,
  };
}

function argumentOf(argument: ArgumentSpec): CompletionArgument {
  const name = argument.name.replace(/[<>[\].]/g, "");
  return {
    name,
    kind: argument.kind ?? valueKind(name),
    choices: argument.choices,
    variadic: argument.name.includes("..."),
  };
}

/** What a value's name in the notation says it names (command.ts, `ValueKind`). */
export function valueKind(name: string): ValueKind | undefined {
  if (name === "session") return "session";
  if (["dir", "old", "new"].includes(name)) return "folder";
  if (name === "file") return "file";
  return undefined;
}
