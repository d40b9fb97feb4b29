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
import {
  bareWordRefusal,
  misplacedJsonRefusal,
  numberTypo,
  translateLegacyArgs,
} from "./legacy.ts";
import { CommandLineError, jsonAmong, parseCommandLine } from "./parse_args.ts";
import { COMMANDS, loadCommand, VERSION_COMMAND } from "./commands.ts";

/** How {@linkcode runCli} reaches the world. */
export interface CliOptions {
  makeContext: ContextFactory;
  /** Where help and version go. */
  writeOut: (text: string) => void;
  /** Where usage errors go. */
  writeErr: (text: string) => void;
  /**
   * Hears that the command line asked for JSON (a command's own `--json`,
   * also when the rest of the line did not parse, or `--json` on a line
   * that fails before it names a command): a failure is then reported as
   * JSON too (run.ts).
   */
  onJson?: () => void;
}

/** The command tree. */
export const PROGRAM: CommandSpec = {
  name: "claudecm",
  description: "Session manager for Claude Code: named sessions you resume by number.",
  // Named, described and summed up in commands.ts (all the program's --help shows); the rest of
  // a command loads from its file when a command line names it (withCommandLoaded), so a run
  // parses against one command, not all of them.
  subcommands: [...COMMANDS],
  // The program's own option, in its help, completions and man page (parse_args.ts answers
  // these words, lib/version.ts's VERSION_FLAGS, before any command).
  options: [{ flags: "-V, --version", description: "print claudecm's version, then claude's" }],
  helpAfter:
    "\nOld forms still work: claudecm (list), claudecm N (resume N), claudecm n (new session\n" +
    "here), claudecm --proj DIR, and a quoted prompt or arguments starting with -, which start\n" +
    "a new session and pass them to claude. One bare word that is not a command (rm, lsit)\n" +
    "is refused, never sent to claude: send words with claudecm new -- WORDS.\n",
};

/**
 * Run claudecm with `args` (without the program name); returns the exit
 * code. A command line that does not parse gets one `claudecm: ` line on
 * stderr and exit 2.
 */
export async function runCli(args: readonly string[], options: CliOptions): Promise<number> {
  const refusal = refusalBeforeCommand(args);
  if (refusal !== null) return usageError(refusal, { json: jsonAmong(args), options });
  const commandLine = translateLegacyArgs(args);
  const program = await withCommandLoaded(commandLine);
  let parsed;
  try {
    parsed = parseCommandLine(program, commandLine);
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    return usageError(error.message, { json: error.json === true, options });
  }
  if (parsed.kind === "version" || (parsed.kind === "run" && parsed.command === VERSION_COMMAND)) {
    return await printVersions(options.writeOut);
  }
  switch (parsed.kind) {
    case "help": {
      const { formatHelp } = await import("./help.ts");
      const text = formatHelp(parsed.command, { program: PROGRAM.name, path: parsed.path });
      // A group named without its subcommand (`claudecm skill`) is a usage error.
      if (parsed.toStderr) options.writeErr(text);
      else options.writeOut(text);
      return parsed.toStderr ? ExitCode.usage : ExitCode.ok;
    }
    case "run":
      if (parsed.input.flag("json")) options.onJson?.();
      return await parsed.command.run!(parsed.input, options.makeContext);
  }
}

/**
 * Why a line is refused before it names a command, or null: none of these
 * may reach claude as a prompt (DESIGN.md 5.18, 5.22).
 */
function refusalBeforeCommand(args: readonly string[]): string | null {
  if (args.length > 0 && args[0].trim() === "") {
    // A script's unset variable ("$X") would start a session with an empty prompt.
    return "the first argument is empty (an unset variable?); to start a session here: " +
      "claudecm new";
  }
  const number = numberTypo(args);
  if (number !== null) {
    // `claudecm N` resumes; anything else starts a session with it as the prompt.
    return `'${args[0]}' is not a session number as typed; ` +
      (number === "" ? "type the number with the digits 0-9" : `to resume it: claudecm ${number}`);
  }
  return bareWordRefusal(args) ?? misplacedJsonRefusal(args);
}

/**
 * A usage error: one `claudecm: ` line on stderr and exit 2, and, when the
 * line asked for JSON, the word to run.ts that a script wants its failure
 * object too, wherever the line failed (issue 33).
 */
function usageError(
  message: string,
  { json, options }: { json: boolean; options: CliOptions },
): number {
  if (json) options.onJson?.();
  options.writeErr(`claudecm: ${message}\n`);
  return ExitCode.usage;
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

/** claudecm's version, then claude's or why there is none (main.ts does the same for `--version`). */
async function printVersions(writeOut: (text: string) => void): Promise<number> {
  writeOut(`${VERSION}\n`);
  const [{ claudeVersionLine }, { hostOs }] = await Promise.all([
    import("../app/version/claude_version.ts"),
    import("../platform/os.ts"),
  ]);
  const line = await claudeVersionLine(Deno.env.toObject(), { os: hostOs });
  writeOut(`${line}\n`);
  return ExitCode.ok;
}
