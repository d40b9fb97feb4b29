/**
 * The command tree and how one command line runs. Each command is declared
 * in its own file (command.ts says how); its flow in lib/app loads only when
 * it runs, so `--help` and a script's `list --json` start near the floor.
 *
 * @module
 */

import type { CommandSpec, ContextFactory } from "./command.ts";
import { ExitCode } from "../core/errors.ts";
import { VERSION } from "../version.ts";
import { commandTypo, numberTypo, translateLegacyArgs } from "./legacy.ts";
import { CommandLineError, parseCommandLine } from "./parse_args.ts";

/** How {@linkcode runCli} reaches the world. */
export interface CliOptions {
  makeContext: ContextFactory;
  /** Where help and version go. */
  writeOut: (text: string) => void;
  /** Where usage errors go. */
  writeErr: (text: string) => void;
}

/** `version`: answered here, like `--version`, without a context (no HOME needed). */
const VERSION_COMMAND: CommandSpec = {
  name: "version",
  description: "print claudecm's version and, on the next line, claude's (also -v, -V, --version)",
};

/** The command tree. */
export const PROGRAM: CommandSpec = {
  name: "claudecm",
  description: "Session manager for Claude Code: named sessions you resume by number.",
  // Named, described and summed up here (all the program's --help shows); the rest of a command
  // loads from its file when a command line names it (withCommandLoaded), so a run parses
  // against one command, not all of them.
  subcommands: [
    {
      name: "list",
      description: "the saved sessions; in a terminal, pick one to resume it",
      synopsis: "[options]",
      load: async () => (await import("./list.ts")).listCommand,
    },
    {
      name: "resume",
      description:
        "resume session #N of the list (old form: claudecm N), or one named by name or id",
      synopsis: "<session>",
      load: async () => (await import("./resume.ts")).resumeCommand,
    },
    {
      name: "search",
      description: "list the sessions whose name contains TERM; pick one to resume it",
      synopsis: "[options] [term...]",
      load: async () => (await import("./search.ts")).searchCommand,
    },
    {
      name: "new",
      description: "start claude in a directory: resume its saved session, or name a new one",
      synopsis: "[options] [claude-args...]",
      load: async () => (await import("./new.ts")).newCommand,
    },
    {
      name: "recover",
      description: "rebuild a crashed session in this folder from its transcript (read-only)",
      synopsis: "[options]",
      load: async () => (await import("./recover.ts")).recoverCommand,
    },
    {
      name: "rescue",
      description: "find sessions that died of context overflow and write recovery threads",
      synopsis: "[options]",
      load: async () => (await import("./rescue.ts")).rescueCommand,
    },
    {
      name: "recall",
      description: "what a session did and what still holds in the repository now (read-only)",
      synopsis: "[options] [session]",
      load: async () => (await import("./recall.ts")).recallCommand,
    },
    {
      name: "skill",
      description: "Claude Code skills claudecm provides",
      synopsis: "",
      load: async () => (await import("./skill.ts")).skillCommand,
    },
    {
      name: "skeleton",
      description: "write a session's refresh skeleton and filtered transcript (reads only)",
      synopsis: "[options] <session>",
      load: async () => (await import("./skeleton.ts")).skeletonCommand,
    },
    {
      name: "doctor",
      description: "check claude, cmv, transcript protection and the registry (read-only)",
      synopsis: "[options]",
      load: async () => (await import("./doctor.ts")).doctorCommand,
    },
    {
      name: "find",
      description: "search what was said in every session, in every project, and resume a hit",
      synopsis: "[options] <terms...>",
      load: async () => (await import("./find.ts")).findCommand,
    },
    {
      name: "adopt",
      description: "add sessions claude has on disk that the list does not know",
      synopsis: "[options]",
      load: async () => (await import("./adopt.ts")).adoptCommand,
    },
    {
      name: "vault",
      description: "show which sessions the vault protects from Claude Code's clean-up",
      synopsis: "[options]",
      load: async () => (await import("./vault.ts")).vaultCommand,
    },
    {
      name: "restore",
      description: "restore a session's transcript from the vault, without resuming it",
      synopsis: "[options] <session>",
      load: async () => (await import("./restore.ts")).restoreCommand,
    },
    {
      name: "export",
      description: "a session as Markdown or one HTML page, to stdout or a file (read-only)",
      synopsis: "[options] <session>",
      load: async () => (await import("./export.ts")).exportCommand,
    },
    {
      name: "tree",
      description: "a session's family: what it was forked or refreshed from, what came of it",
      synopsis: "[options] [session]",
      load: async () => (await import("./tree.ts")).treeCommand,
    },
    VERSION_COMMAND,
    {
      name: "move",
      description: "after moving or renaming a project folder, move its sessions along",
      synopsis: "[options] <old> <new>",
      load: async () => (await import("./move.ts")).moveCommand,
    },
  ],
  helpAfter:
    "\nOld forms still work: claudecm (list), claudecm N (resume N), claudecm n (new session\n" +
    "here), claudecm --proj DIR, and any other arguments, which start a new session and pass\n" +
    "them to claude; a first word close to a command (lsit) is refused as a typo: send such\n" +
    "words with claudecm new -- WORDS.\n",
};

const PROGRAM_OPTIONS = [
  { term: "-V, --version", description: "print claudecm's version, then claude's" },
];

/**
 * Run claudecm with `args` (without the program name); returns the exit
 * code. A command line that does not parse gets one `claudecm: ` line on
 * stderr and exit 2.
 */
export async function runCli(args: readonly string[], options: CliOptions): Promise<number> {
  if (args.length > 0 && args[0].trim() === "") {
    // A script's unset variable ("$X") would start a session with an empty prompt.
    options.writeErr(
      "claudecm: the first argument is empty (an unset variable?); to start a session here: " +
        "claudecm new\n",
    );
    return ExitCode.usage;
  }
  const number = numberTypo(args);
  if (number !== null) {
    // `claudecm N` resumes; anything else starts a session with it as the prompt.
    options.writeErr(
      `claudecm: '${args[0]}' is not a session number as typed; ` +
        (number === ""
          ? "type the number with the digits 0-9"
          : `to resume it: claudecm ${number}`) +
        "\n",
    );
    return ExitCode.usage;
  }
  const typo = commandTypo(args);
  if (typo.length > 0) {
    // A typo never reaches claude as a prompt (DESIGN.md 5.18).
    const named = typo.length === 1 ? typo[0] : `one of ${typo.join(", ")}`;
    options.writeErr(
      `claudecm: unknown command '${args[0]}'. Did you mean ${named}? ` +
        `(To send it to claude: claudecm new -- ${args.map(shellWord).join(" ")})\n`,
    );
    return ExitCode.usage;
  }
  const commandLine = translateLegacyArgs(args);
  const program = await withCommandLoaded(commandLine);
  let parsed;
  try {
    parsed = parseCommandLine(program, commandLine);
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    options.writeErr(`claudecm: ${error.message}\n`);
    return ExitCode.usage;
  }
  if (parsed.kind === "version" || (parsed.kind === "run" && parsed.command === VERSION_COMMAND)) {
    return await printVersions(options.writeOut);
  }
  switch (parsed.kind) {
    case "help": {
      const { formatHelp } = await import("./help.ts");
      const text = formatHelp(parsed.command, {
        program: PROGRAM.name,
        path: parsed.path,
        programOptions: parsed.path.length === 0 ? PROGRAM_OPTIONS : [],
      });
      // A group named without its subcommand (`claudecm skill`) is a usage error.
      if (parsed.toStderr) options.writeErr(text);
      else options.writeOut(text);
      return parsed.toStderr ? ExitCode.usage : ExitCode.ok;
    }
    case "run":
      return await parsed.command.run!(parsed.input, options.makeContext);
  }
}

/**
 * The tree with the command `commandLine` names (`list ...`, `help list`)
 * loaded from its file; the others stay names and descriptions, which is
 * all that `--help` and a typo's suggestion need.
 */
async function withCommandLoaded(commandLine: readonly string[]): Promise<CommandSpec> {
  const name = commandLine[0] === "help" ? commandLine[1] : commandLine[0];
  const subcommands = PROGRAM.subcommands!;
  const at = subcommands.findIndex((command) => command.name === name && command.load);
  if (at < 0) return PROGRAM;
  return { ...PROGRAM, subcommands: subcommands.with(at, await loadCommand(subcommands[at])) };
}

/** `command` whole: its name and description with what its file declares. */
async function loadCommand(command: CommandSpec): Promise<CommandSpec> {
  if (command.load === undefined) return command;
  return { name: command.name, description: command.description, ...await command.load() };
}

/** `word`, quoted when a shell would split it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** claudecm's version, then claude's or why there is none (main.ts does the same for `--version`). */
async function printVersions(writeOut: (text: string) => void): Promise<number> {
  writeOut(`${VERSION}\n`);
  const { claudeVersionLine } = await import("../app/version/claude_version.ts");
  const line = await claudeVersionLine(Deno.env.toObject(), { os: Deno.build.os });
  writeOut(`${line}\n`);
  return ExitCode.ok;
}
