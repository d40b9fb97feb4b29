/**
 * Parse a command line against the declared commands (command.ts). The
 * grammar and the messages are commander's: options anywhere before `--`,
 * `--name value` or `--name=value`, `-h`/`--help` anywhere, `help [command]`
 * for a group, and usage errors such as "unknown option '--jsn'" with a
 * "(Did you mean --json?)" hint.
 *
 * @module
 */

import {
  type ArgumentSpec,
  type CommandSpec,
  InvalidValueError,
  type OptionSpec,
  orList,
  ParsedInput,
} from "./command.ts";
import { suggestSimilar } from "./suggest.ts";
import { VERSION_FLAGS } from "../version.ts";

/** What the command line asks for. */
export type ParsedCommandLine =
  | { kind: "run"; command: CommandSpec; input: ParsedInput }
  /** `path`: the command names from the root, for the usage line. */
  | { kind: "help"; command: CommandSpec; path: string[]; toStderr: boolean }
  | { kind: "version" };

/** A command line that does not fit the declared commands; the message is commander's. */
export class CommandLineError extends Error {
  /**
   * A script wants JSON back: the command it named declares `--json` and was
   * given it, or, on a line that names no command, `--json` is among its words.
   * Unset until parseCommandLine decides it.
   */
  json?: boolean;
  constructor(message: string) {
    super(message);
    this.name = "CommandLineError";
  }
}

/** An option's flags, split: `-i, --interactive` → short `-i`, long `--interactive`, key `interactive`. */
interface OptionShape {
  short?: string;
  long: string;
  /** The name its value is kept under: `dry-run` → `dryRun`; `--no-index` → `index`. */
  key: string;
  /** `<n>` when it takes a value. */
  valueName?: string;
  negated: boolean;
}

const FLAGS = /^(?:(-[A-Za-z]), )?(--[a-z][a-z-]*)(?: (<[^>]+>))?$/;

/** Split an option's flags; throws on notation the parser does not support. */
function optionShape(option: OptionSpec): OptionShape {
  const match = FLAGS.exec(option.flags);
  if (match === null) throw new Error(`unsupported option flags: ${option.flags}`);
  const [, short, long, valueName] = match;
  const negated = long.startsWith("--no-");
  const name = negated ? long.slice(5) : long.slice(2);
  const key = name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return { short, long, key, valueName, negated };
}

/** An argument's name without brackets or dots, and whether it is required and variadic. */
export function argumentShape(
  argument: ArgumentSpec,
): { key: string; required: boolean; variadic: boolean } {
  return {
    key: argument.name.replace(/[<>[\].]/g, ""),
    required: argument.name.startsWith("<"),
    variadic: argument.name.includes("..."),
  };
}

const HELP_FLAGS = new Set(["-h", "--help"]);
const VERSION_WORDS = new Set(VERSION_FLAGS);

/** Parse `args` (without the program name) against `root`, the program. */
export function parseCommandLine(root: CommandSpec, args: readonly string[]): ParsedCommandLine {
  const first = args[0];
  // The program's own options come before a command; the first one decides.
  if (first !== undefined && VERSION_WORDS.has(first)) return { kind: "version" };
  try {
    return parseGroupOrLeaf(root, { args, path: [] });
  } catch (error) {
    // A leaf's error has its command's answer (parseLeaf); before one, the words are all there is.
    if (error instanceof CommandLineError) error.json ??= jsonAmong(args);
    throw error;
  }
}

/**
 * Whether a line that names no command asks for JSON: `--json` among
 * claudecm's words (before a `--`, after which are claude's). With no command
 * named, no option can claim the word as its value.
 */
export function jsonAmong(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).includes("--json");
}

/** The command line from `command` on: `args` follow the command names in `path`. */
interface CommandLineRest {
  args: readonly string[];
  path: string[];
}

function parseGroupOrLeaf(
  command: CommandSpec,
  { args, path }: CommandLineRest,
): ParsedCommandLine {
  if (command.subcommands === undefined) return parseLeaf(command, { args, path });
  const [first, ...rest] = args;
  // A group that runs on its own (`vault`, `vault --json`) takes no subcommand or its options.
  if (command.run !== undefined && (first === undefined || isOptionArg(first))) {
    return parseLeaf(command, { args, path });
  }
  if (first === undefined) return { kind: "help", command, path, toStderr: true };
  if (HELP_FLAGS.has(first)) return { kind: "help", command, path, toStderr: false };
  if (first === "help") {
    // `help help` and `help --help` ask how help works: the group's own help says it.
    if (rest[0] === undefined || rest[0] === "help" || HELP_FLAGS.has(rest[0])) {
      return { kind: "help", command, path, toStderr: false };
    }
    const target = findSubcommand(command, rest[0]);
    return { kind: "help", command: target, path: [...path, target.name], toStderr: false };
  }
  if (first.startsWith("-")) throw new CommandLineError(`unknown option '${first}'`);
  const sub = findSubcommand(command, first);
  return parseGroupOrLeaf(sub, { args: rest, path: [...path, sub.name] });
}

function isOptionArg(arg: string): boolean {
  return arg.startsWith("-") && !HELP_FLAGS.has(arg);
}

function findSubcommand(group: CommandSpec, name: string): CommandSpec {
  const found = group.subcommands?.find((sub) => sub.name === name);
  if (found !== undefined) return found;
  const names = (group.subcommands ?? []).map((sub) => sub.name);
  throw new CommandLineError(
    `unknown command '${name}'${suggestSimilar(name, [...names, "help"])}`,
  );
}

function parseLeaf(command: CommandSpec, rest: CommandLineRest): ParsedCommandLine {
  const shapes = (command.options ?? []).map((option) => ({ option, shape: optionShape(option) }));
  try {
    return parseLeafOptions(command, { ...rest, shapes });
  } catch (error) {
    if (error instanceof CommandLineError) error.json = givenJson(shapes, rest.args);
    throw error;
  }
}

/** An option as declared, and its flags split. */
interface ShapedOption {
  option: OptionSpec;
  shape: OptionShape;
}

/**
 * Whether the command declares `--json` and `args` give it as an option:
 * not as another option's value (`export 99 -o --json`), nor after a `--`,
 * after which the words are claude's.
 */
function givenJson(shapes: readonly ShapedOption[], args: readonly string[]): boolean {
  if (!shapes.some(({ shape }) => shape.long === "--json")) return false;
  for (let i = 0; i < args.length && args[i] !== "--"; i++) {
    if (args[i] === "--json") return true;
    const [written, inline] = splitInlineValue(args[i]);
    const found = shapes.find(({ shape }) => shape.long === written || shape.short === written);
    if (found?.shape.valueName !== undefined && inline === undefined) i++;
  }
  return false;
}

function parseLeafOptions(
  command: CommandSpec,
  { args, path, shapes }: CommandLineRest & { shapes: readonly ShapedOption[] },
): ParsedCommandLine {
  const options = new Map<string, unknown>();
  for (const { shape } of shapes) if (shape.negated) options.set(shape.key, true);
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (HELP_FLAGS.has(arg)) return { kind: "help", command, path, toStderr: false };
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const [written, inline] = splitInlineValue(arg);
    const found = shapes.find(({ shape }) => shape.long === written || shape.short === written);
    if (found === undefined) {
      const known = shapes.map(({ shape }) => shape.long).concat("--help");
      const hint = written.startsWith("--") ? suggestSimilar(written, known) : "";
      throw new CommandLineError(`unknown option '${arg}'${hint}`);
    }
    const { option, shape } = found;
    if (shape.valueName === undefined) {
      if (inline !== undefined) {
        throw new CommandLineError(`${shape.long} takes no value (${arg})`);
      }
      options.set(shape.key, !shape.negated);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) {
      throw new CommandLineError(`${shape.long} needs a value: ${option.flags}`);
    }
    options.set(
      shape.key,
      parseOptionValue(option, { long: shape.long, value, previous: options.get(shape.key) }),
    );
  }
  return {
    kind: "run",
    command,
    input: new ParsedInput(bindArguments(command, { positional, path }), options),
  };
}

/** `--name=value` → [`--name`, `value`]; anything else has no inline value. */
function splitInlineValue(arg: string): [string, string | undefined] {
  const at = arg.indexOf("=");
  if (!arg.startsWith("--") || at === -1) return [arg, undefined];
  return [arg.slice(0, at), arg.slice(at + 1)];
}

function parseOptionValue(
  option: OptionSpec,
  { long, value, previous }: { long: string; value: string; previous: unknown },
): unknown {
  if (option.parse === undefined) {
    // A value of a fixed few is checked here, with the others named (`--format md|html`).
    if (option.choices !== undefined && !option.choices.includes(value)) {
      throw new CommandLineError(`${long} takes ${orList(option.choices)}, not '${value}'`);
    }
    return value;
  }
  try {
    return option.parse(value, previous);
  } catch (error) {
    if (!(error instanceof InvalidValueError)) throw error;
    // Plain words (issue 31 item 8): "--limit takes a positive whole number (1, 2, ...), not '0'".
    throw new CommandLineError(
      error.whole ? error.message : `${long} takes ${error.message}, not '${value}'`,
    );
  }
}

function bindArguments(
  command: CommandSpec,
  { positional, path }: { positional: string[]; path: readonly string[] },
): Map<string, unknown> {
  const usage = `usage: ${usageLine(command, path)}`;
  const specs = command.arguments ?? [];
  const bound = new Map<string, unknown>();
  let next = 0;
  for (const argument of specs) {
    const { key, required, variadic } = argumentShape(argument);
    const values = variadic ? positional.slice(next) : positional.slice(next, next + 1);
    next += values.length;
    if (values.length === 0) {
      if (required) throw new CommandLineError(`missing ${argument.name} (${usage})`);
      continue;
    }
    // An empty word for a required argument is an unset shell variable (`claudecm move "$OLD"
    // ...`), never a choice: taken as a path it would be the folder claudecm runs in. An optional
    // one is the command's to judge (`search ''` shows search's usage).
    if (required && !variadic && values[0].trim() === "") {
      throw new CommandLineError(`argument '${key}' is empty`);
    }
    const parsed = values.map((value) => parseArgumentValue(argument, { value, usage }));
    bound.set(key, variadic ? parsed : parsed[0]);
  }
  if (next < positional.length) {
    const extra = positional.slice(next).map((word) => `'${word}'`).join(", ");
    throw new CommandLineError(`too many arguments: ${extra} (${usage})`);
  }
  return bound;
}

function parseArgumentValue(
  argument: ArgumentSpec,
  { value, usage }: { value: string; usage: string },
): unknown {
  if (argument.parse === undefined) return value;
  try {
    return argument.parse(value);
  } catch (error) {
    if (!(error instanceof InvalidValueError)) throw error;
    // Plain words (issue 31 item 8): "not a session number: abc (usage: ...)".
    throw new CommandLineError(
      error.whole ? error.message : `not ${error.message}: ${value} (${usage})`,
    );
  }
}

/** `claudecm resume <session>`: how a command is typed, for a usage error. */
export function usageLine(command: CommandSpec, path: readonly string[]): string {
  const options = (command.options ?? []).length > 0 ? ["[options]"] : [];
  return ["claudecm", ...path, ...options, ...(command.arguments ?? []).map((a) => a.name)]
    .join(" ");
}
