import assert from "node:assert/strict";
import { type CommandSpec, defineCommand, InvalidValueError } from "../lib/cli/command.ts";
import { formatHelp } from "../lib/cli/help.ts";
import {
  CommandLineError,
  parseCommandLine,
  type ParsedCommandLine,
} from "../lib/cli/parse_args.ts";
import { suggestSimilar } from "../lib/cli/suggest.ts";

function positive(text: string): number {
  const number = Number(text);
  if (!Number.isInteger(number) || number < 1) {
    throw new InvalidValueError("a number of at least 1");
  }
  return number;
}

const TOOL: CommandSpec = {
  name: "tool",
  description: "does things",
  arguments: [{ name: "<terms...>", description: "what to look for" }],
  options: [
    { flags: "--json", description: "as JSON" },
    { flags: "-i, --interactive", description: "ask" },
    { flags: "--limit <n>", description: "at most N", parse: positive },
    {
      flags: "--role <role>",
      description: "repeatable",
      parse: (value, previous) => [...(Array.isArray(previous) ? previous : []), value],
    },
    { flags: "--no-index", description: "without the index" },
    { flags: "--dry-run", description: "write nothing" },
  ],
  run: () => 0,
};

const ROOT: CommandSpec = {
  name: "prog",
  description: "a program",
  subcommands: [
    TOOL,
    { name: "one", description: "one optional", arguments: [{ name: "[x]", description: "x" }] },
    {
      name: "group",
      description: "a group",
      subcommands: [{ name: "leaf", description: "a leaf", run: () => 0 }],
    },
  ],
};

function run(args: string[]): Extract<ParsedCommandLine, { kind: "run" }> {
  const parsed = parseCommandLine(ROOT, args);
  assert.equal(parsed.kind, "run", args.join(" "));
  return parsed as Extract<ParsedCommandLine, { kind: "run" }>;
}

function usageError(args: string[]): string {
  try {
    parseCommandLine(ROOT, args);
  } catch (error) {
    assert.ok(error instanceof CommandLineError, String(error));
    return error.message;
  }
  assert.fail(`${args.join(" ")} parsed`);
}

Deno.test("options go anywhere before --, as --name value or --name=value", () => {
  const parsed = run(["tool", "a", "--limit", "3", "-i", "b", "--role=user", "--role", "tool"]);
  assert.deepEqual(parsed.input.argList("terms"), ["a", "b"]);
  assert.equal(parsed.input.number("limit"), 3);
  assert.equal(parsed.input.flag("interactive"), true);
  assert.equal(parsed.input.flag("json"), false);
  assert.deepEqual(parsed.input.list("role"), ["user", "tool"]);
});

Deno.test("after -- everything is an argument, even what looks like an option", () => {
  const parsed = run(["tool", "--json", "--", "--limit", "-i", "--help"]);
  assert.deepEqual(parsed.input.argList("terms"), ["--limit", "-i", "--help"]);
  assert.equal(parsed.input.flag("json"), true);
  assert.equal(parsed.input.number("limit"), undefined);
});

Deno.test("a --no- option is true until given; kebab-case options are camelCase keys", () => {
  assert.equal(run(["tool", "x"]).input.flag("index"), true);
  assert.equal(run(["tool", "x", "--no-index"]).input.flag("index"), false);
  assert.equal(run(["tool", "x", "--dry-run"]).input.flag("dryRun"), true);
});

Deno.test("a value option takes the next word whatever it looks like", () => {
  assert.equal(run(["tool", "x", "--role", "-i"]).input.list("role")?.[0], "-i");
});

Deno.test("usage errors say in plain words what is wrong, with the usage line (issue 31 item 8)", () => {
  const cases: Array<[string[], string]> = [
    [["tool", "x", "--bogus"], "unknown option '--bogus'"],
    [["tool", "x", "--jsn"], "unknown option '--jsn'\n(Did you mean --json?)"],
    [["tool", "x", "-x"], "unknown option '-x'"],
    [["tool", "x", "--limit"], "--limit needs a value: --limit <n>"],
    [["tool", "x", "--limit", "0"], "--limit takes a number of at least 1, not '0'"],
    [["tool", "x", "--json=yes"], "--json takes no value (--json=yes)"],
    [["tool"], "missing <terms...> (usage: claudecm tool [options] <terms...>)"],
    [["one", "a", "b"], "too many arguments: 'b' (usage: claudecm one [x])"],
    [["group", "leef"], "unknown command 'leef'\n(Did you mean leaf?)"],
    [["group", "--x"], "unknown option '--x'"],
  ];
  for (const [args, message] of cases) assert.equal(usageError(args), message, args.join(" "));
});

Deno.test("an argument parser's refusal says what the value is not, with the usage", () => {
  const spec: CommandSpec = {
    name: "prog",
    description: "",
    subcommands: [{
      name: "go",
      description: "",
      arguments: [{ name: "<n>", description: "n", parse: positive }],
    }],
  };
  assert.throws(
    () => parseCommandLine(spec, ["go", "x"]),
    { message: "not a number of at least 1: x (usage: claudecm go <n>)" },
  );
});

Deno.test("help: -h anywhere, help [command], a group alone asks on stderr; -V first is the version", () => {
  const help = (args: string[]) => parseCommandLine(ROOT, args);
  assert.deepEqual(help(["tool", "x", "--limit", "2", "-h"]), {
    kind: "help",
    command: TOOL,
    path: ["tool"],
    toStderr: false,
  });
  assert.deepEqual(help(["help", "tool"]), {
    kind: "help",
    command: TOOL,
    path: ["tool"],
    toStderr: false,
  });
  assert.equal((help(["group"]) as { toStderr: boolean }).toStderr, true);
  assert.deepEqual(help(["group", "help", "leaf"]).kind, "help");
  assert.deepEqual(help(["-V", "tool"]), { kind: "version" });
  assert.deepEqual(help(["--version", "--help"]), { kind: "version" });
  assert.equal(help(["--help", "--version"]).kind, "help");
});

Deno.test("the help lays out usage, description and aligned, wrapped columns", () => {
  const text = formatHelp(TOOL, { program: "prog", path: ["tool"] });
  const expected = [
    "Usage: prog tool [options] <terms...>",
    "",
    "does things",
    "",
    "Arguments:",
    "  terms              what to look for",
    "",
    "Options:",
    "  --json             as JSON",
    "  -i, --interactive  ask",
    "  --limit <n>        at most N",
    "  --role <role>      repeatable",
    "  --no-index         without the index",
    "  --dry-run          write nothing",
    "  -h, --help         show help",
    "",
  ].join("\n");
  assert.equal(text, expected);
  const long = formatHelp(
    { ...TOOL, options: [{ flags: "--x", description: "word ".repeat(30).trim() }] },
    { program: "prog", path: ["tool"] },
  );
  for (const line of long.split("\n")) assert.ok(line.length <= 80, line);
  assert.match(long, /\n {14}word word/, "continuation lines line up under the description");
});

Deno.test("suggestions: the closest candidates only, none when nothing is close", () => {
  assert.equal(suggestSimilar("--jsno", ["--json", "--help"]), "\n(Did you mean --json?)");
  assert.equal(suggestSimilar("--al", ["--all", "--as"]), "\n(Did you mean one of --all, --as?)");
  // An option is never offered a command name cut short ('--rsion' for `help --json`).
  assert.equal(suggestSimilar("--json", ["version", "list", "new"]), "");
  assert.equal(suggestSimilar("--lsit", ["list", "--lint"]), "\n(Did you mean --lint?)");
  assert.equal(suggestSimilar("--zzzzzz", ["--json"]), "");
});

// Issue 33.1: flags reached flows through untyped keys; a misspelt one silently gave false.
Deno.test("a command's run sees only what it declares: a misspelt option is a type error", () => {
  const details = defineCommand({
    arguments: [{ name: "<session>", description: "s" }, { name: "[rest...]", description: "r" }],
    options: [
      { flags: "-n, --dry-run", description: "d" },
      { flags: "--limit <n>", description: "l" },
      { flags: "--no-index", description: "i" },
    ],
    run: (input) => {
      input.flag("dryRun");
      input.flag("index");
      input.number("limit");
      input.argText("session");
      input.argList("rest");
      // @ts-expect-error: no such option
      input.flag("dryRn");
      // @ts-expect-error: a value option is not a flag
      input.flag("limit");
      // @ts-expect-error: a flag has no text
      input.text("dryRun");
      // @ts-expect-error: no such argument
      input.argText("sessions");
      return 0;
    },
  });
  assert.equal(typeof details.run, "function");
});

// A parsed option's type is its parser's return type, from the table: no flow names it.
Deno.test("input.parsed gives the type the option's parser returns, and only for an option with one", () => {
  const details = defineCommand({
    options: [
      {
        flags: "--since <when>",
        description: "s",
        parse: (text: string) => ({ ago: text.length }),
      },
      { flags: "--role <role>", description: "r", parse: (_t: string, _p: unknown) => ["user"] },
      { flags: "--project <dir>", description: "p" },
    ],
    run: (input) => {
      const since: { ago: number } | undefined = input.parsed("since");
      const roles: string[] | undefined = input.parsed("role");
      // @ts-expect-error: --since's parser makes no number
      const wrong: number | undefined = input.parsed("since");
      // @ts-expect-error: --project has no parser: its value is text
      input.parsed("project");
      // @ts-expect-error: no such option
      input.parsed("sinse");
      return since === undefined && roles === undefined && wrong === undefined ? 0 : 1;
    },
  });
  assert.equal(typeof details.run, "function");
});

Deno.test("a value of a fixed few is checked by the parser, naming the others", () => {
  const spec: CommandSpec = {
    name: "prog",
    description: "",
    subcommands: [{
      name: "go",
      description: "",
      options: [{ flags: "--format <format>", description: "f", choices: ["md", "html"] }],
      run: () => 0,
    }],
  };
  assert.throws(() => parseCommandLine(spec, ["go", "--format", "pdf"]), {
    message: "--format takes md or html, not 'pdf'",
  });
  const parsed = parseCommandLine(spec, ["go", "--format", "html"]);
  assert.equal(parsed.kind === "run" && parsed.input.text("format"), "html");
});
