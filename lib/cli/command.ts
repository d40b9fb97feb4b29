/**
 * How a claudecm command is declared: its name, arguments, options and help,
 * as plain data the parser (parse_args.ts) and the help writer (help.ts)
 * read, and a `run` that loads the command's flow only when it runs.
 *
 * claudecm declares its commands itself instead of with commander: loading
 * commander, through Deno's Node compatibility layer, cost more than twice a
 * bare Deno start (bench/startup_bench.ts), and claudecm starts many times a
 * day. The notation (`-i, --interactive`, `--limit <n>`, `--no-index`,
 * `<terms...>`) and the messages are commander's, which users and scripts
 * already knew.
 *
 * @module
 */

import type { AppContext, ContextOptions } from "../app/context.ts";

/**
 * Builds the context when a command runs, so `--help` and `--version` need
 * no HOME and load none of the context's modules.
 */
export type ContextFactory = (options?: ContextOptions) => Promise<AppContext>;

/**
 * What a value names, for completions: a registered session, a folder, or a
 * file. Unless given, the value's own name in the notation says it:
 * `<session>` a session, `<dir>` (and `move`'s `<old>`, `<new>`) a folder,
 * `<file>` a file (completion.ts, `valueKind`). An archived session (what
 * `unarchive` takes, by its number in the archived list) is said explicitly.
 */
export type ValueKind = "session" | "archived-session" | "folder" | "file";

/** An option. */
export interface OptionSpec {
  /** `--json`, `-i, --interactive`, `--limit <n>` (takes a value), `--no-index` (negates `index`). */
  flags: string;
  description: string;
  /**
   * Turns the typed text into the option's value; `previous` is the value so
   * far, for options that may be repeated. Throws {@linkcode InvalidValueError}.
   */
  parse?: (value: string, previous: unknown) => unknown;
  /** What its value names (completions offer those). */
  kind?: ValueKind;
  /** The values it takes, when they are a fixed few (completions offer them). */
  choices?: readonly string[];
}

/** A positional argument. */
export interface ArgumentSpec {
  /** `<name>` required, `[name]` optional; `...` inside makes it take the rest (last one only). */
  name: string;
  description: string;
  /** Turns the typed text into the value; throws {@linkcode InvalidValueError}. */
  parse?: (value: string) => unknown;
  /** What it names (completions offer those). */
  kind?: ValueKind;
  /** The values it takes, when they are a fixed few. */
  choices?: readonly string[];
}

/** A command: a leaf with `run`, or a group of `subcommands`. */
export interface CommandSpec {
  name: string;
  description: string;
  arguments?: ArgumentSpec[];
  options?: OptionSpec[];
  /** Printed after the generated help. */
  helpAfter?: string;
  /** The heading its parent's help lists it under; the ungrouped go under "Commands:". */
  group?: string;
  /** Left out of help, completions and the man page (the completion entry point). */
  hidden?: boolean;
  subcommands?: CommandSpec[];
  /** Run the command; returns its exit code. */
  run?: (input: ParsedInput, makeContext: ContextFactory) => Promise<number> | number;
  /**
   * For a command the program's tree only names: loads the rest of it, which
   * lives in the command's own file, when a command line names it.
   */
  load?: () => Promise<CommandDetails>;
  /**
   * With `load`: what follows the name where the parent's help lists it
   * (`[options] <terms...>`), so `--help` needs no command's file. A test
   * checks it against what the file declares.
   */
  synopsis?: string;
}

/** What a command's own file declares: all but the name and description the program's tree lists. */
export type CommandDetails = Omit<CommandSpec, "name" | "description" | "load" | "synopsis">;

/** `--dry-run` → `dry-run`, `-i, --interactive` → `interactive`, `--limit <n>` → `limit`. */
type LongName<F extends string> = F extends `-${string}, --${infer L}` ? BareName<L>
  : F extends `--${infer L}` ? BareName<L>
  : never;
type BareName<L extends string> = L extends `${infer N} <${string}>` ? N : L;
type Unnegated<N extends string> = N extends `no-${infer R}` ? R : N;
type CamelCase<S extends string> = S extends `${infer H}-${infer T}`
  ? `${H}${Capitalize<CamelCase<T>>}`
  : S;
/** The key an option's value is kept under, as parse_args.ts makes it: `--no-index` → `index`. */
export type OptionKey<F extends string> = CamelCase<Unnegated<LongName<F>>>;
type Flags<O> = O extends { flags: infer F extends string } ? F : never;
/** The keys of the options in `O` that take no value (`--json`). */
export type FlagKeys<O extends readonly OptionSpec[]> = {
  [I in keyof O]: Flags<O[I]> extends `${string}<${string}>` ? never : OptionKey<Flags<O[I]>>;
}[number];
/** The keys of the options in `O` that take a value (`--limit <n>`). */
export type ValueKeys<O extends readonly OptionSpec[]> = {
  [I in keyof O]: Flags<O[I]> extends `${string}<${string}>` ? OptionKey<Flags<O[I]>> : never;
}[number];
/** What an option's parser makes (its declared return type). */
type ParserResult<S> = S extends { parse: (...args: never[]) => infer R } ? R : never;
/**
 * Each option in `O` that declares a parser, by its key, with the type its
 * parser returns (`--since <when>` with `parseSinceOption` → `Since`): what
 * `input.parsed` gives, so a flow gets the type the table declares.
 */
export type ParsedValues<O extends readonly OptionSpec[]> = {
  [S in O[number] as S extends { parse: unknown } ? OptionKey<Flags<S>> : never]: ParserResult<S>;
};
/** The keys of the arguments in `A`: `<session>` → `session`, `[claude-args...]` → `claude-args`. */
export type ArgumentKeys<A extends readonly ArgumentSpec[]> = {
  [I in keyof A]: A[I] extends { name: infer N extends string }
    ? N extends `${"<" | "["}${infer K}${">" | "]"}` ? (K extends `${infer V}...` ? V : K) : never
    : never;
}[number];

/**
 * A command's declaration, whose `run` sees only what it declares: a
 * misspelt or undeclared option or argument (`input.flag("dryRn")`) is a
 * type error, and so is reading a value option as a flag.
 */
export interface TypedDetails<O extends readonly OptionSpec[], A extends readonly ArgumentSpec[]>
  extends Omit<CommandDetails, "options" | "arguments" | "run"> {
  options?: O;
  arguments?: A;
  run?: (
    input: ParsedInput<FlagKeys<O>, ValueKeys<O>, ArgumentKeys<A>, ParsedValues<O>>,
    makeContext: ContextFactory,
  ) => Promise<number> | number;
}

/** Declare a command (its file's export): see {@linkcode TypedDetails}. */
export function defineCommand<
  const O extends readonly OptionSpec[] = [],
  const A extends readonly ArgumentSpec[] = [],
>(details: TypedDetails<O, A>): CommandDetails {
  return details as CommandDetails;
}

/** Declare a group's subcommand (`vault prune`), typed as {@linkcode defineCommand} is. */
export function defineSubcommand<
  const O extends readonly OptionSpec[] = [],
  const A extends readonly ArgumentSpec[] = [],
>(named: { name: string; description: string }, details: TypedDetails<O, A>): CommandSpec {
  return { ...named, ...details } as CommandSpec;
}

/** `md or html`, `user, assistant or tool`: the values a refusal names. */
export function orList(values: readonly string[]): string {
  return values.length < 2
    ? values.join("")
    : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
}

/**
 * Thrown by an option or argument parser when the text is not acceptable.
 * The message names what the value must be ("a whole number of at least
 * 1"), which the parser words as "--limit takes a whole number of at least
 * 1, not '0'"; with `whole`, the message is already the whole sentence.
 */
export class InvalidValueError extends Error {
  readonly whole: boolean;
  constructor(message: string, options: { whole?: boolean } = {}) {
    super(message);
    this.name = "InvalidValueError";
    this.whole = options.whole === true;
  }
}

/**
 * What the command line gave a command: its arguments and options, by the
 * names it declared (`F` its flags, `V` its value options, `A` its
 * arguments, `P` the options with a parser and the types they make).
 */
export class ParsedInput<
  F extends string = string,
  V extends string = string,
  A extends string = string,
  P extends { [key: string]: unknown } = { [key: string]: unknown },
> {
  readonly #args: ReadonlyMap<string, unknown>;
  readonly #options: ReadonlyMap<string, unknown>;

  constructor(args: ReadonlyMap<string, unknown>, options: ReadonlyMap<string, unknown>) {
    this.#args = args;
    this.#options = options;
  }

  /** A boolean option: true when given (for `--no-x`, false when given, else true). */
  flag(name: F): boolean {
    return this.#options.get(name) === true;
  }

  /** A text option, or undefined when not given. */
  text(name: V): string | undefined {
    return this.#typed(this.#options, name, "string") as string | undefined;
  }

  /** A numeric option, or undefined when not given. */
  number(name: V): number | undefined {
    return this.#typed(this.#options, name, "number") as number | undefined;
  }

  /**
   * An option of a fixed few (declared with `choices`, which the parser
   * checked), as one of `choices`; undefined when not given.
   */
  choice<T extends string>(name: V, choices: readonly T[]): T | undefined {
    const value = this.text(name);
    if (value === undefined || (choices as readonly string[]).includes(value)) {
      return value as T | undefined;
    }
    throw new Error(`option ${name} is not one of ${choices.join(", ")}`);
  }

  /**
   * What an option's parser made of its text, of the type that parser
   * returns, or undefined when not given. Only an option declared with a
   * parser has one: the value in the map is that parser's (parse_args.ts).
   */
  parsed<K extends keyof P & string>(name: K): P[K] | undefined {
    return this.#options.get(name) as P[K] | undefined;
  }

  /** A repeatable option's values, or undefined when not given. */
  list(name: V): string[] | undefined {
    const value = this.#options.get(name);
    if (value === undefined || Array.isArray(value)) return value;
    throw new Error(`option ${name} is not a list`);
  }

  /** A single argument's text, or undefined when it was not given. */
  argText(name: A): string | undefined {
    return this.#typed(this.#args, name, "string") as string | undefined;
  }

  /** A single argument its parser made a number, or undefined when it was not given. */
  argNumber(name: A): number | undefined {
    return this.#typed(this.#args, name, "number") as number | undefined;
  }

  /** A variadic argument's texts; empty when none were given. */
  argList(name: A): string[] {
    const value = this.#args.get(name) ?? [];
    if (Array.isArray(value)) return value;
    throw new Error(`argument ${name} is not a list`);
  }

  #typed(values: ReadonlyMap<string, unknown>, name: string, type: string): unknown {
    const value = values.get(name);
    if (value === undefined || typeof value === type) return value;
    throw new Error(`${name} is not a ${type}`);
  }
}
