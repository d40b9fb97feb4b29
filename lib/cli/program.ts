/**
 * The command tree. Each subcommand lives in its own file and registers
 * itself here; the work is done by a flow in lib/app that takes an
 * {@linkcode AppContext}.
 *
 * @module
 */

import { Command, CommanderError } from "@commander-js/extra-typings";
import type { AppContext } from "../app/context.ts";
import { ExitCode } from "../core/errors.ts";
import { VERSION } from "../version.ts";
import { registerAdoptCommand } from "./adopt.ts";
import { registerDoctorCommand } from "./doctor.ts";
import { registerFindCommand } from "./find.ts";
import { translateLegacyArgs } from "./legacy.ts";
import { registerListCommand } from "./list.ts";
import { registerNewCommand } from "./new.ts";
import { registerRecallCommand } from "./recall.ts";
import { registerRecoverCommand } from "./recover.ts";
import { registerRescueCommand } from "./rescue.ts";
import { registerResumeCommand } from "./resume.ts";
import { registerSearchCommand } from "./search.ts";
import { registerSkeletonCommand } from "./skeleton.ts";
import { registerSkillCommand } from "./skill.ts";

/** Builds the context lazily, so `--help` and `--version` need no HOME. */
export type ContextFactory = () => AppContext;

/** Result holder a subcommand's action writes its exit code into. */
export interface CommandResult {
  exitCode: number;
}

/** How {@linkcode runCli} reaches the world. */
export interface CliOptions {
  makeContext: ContextFactory;
  /** Where help, version and usage errors go. */
  writeOut: (text: string) => void;
  writeErr: (text: string) => void;
}

/** Run claudecm with `args` (without the program name); returns the exit code. */
export async function runCli(args: readonly string[], options: CliOptions): Promise<number> {
  const result: CommandResult = { exitCode: ExitCode.ok };
  const program = buildProgram(options, result);
  try {
    await program.parseAsync(translateLegacyArgs(args), { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return commanderExitCode(error);
    throw error;
  }
  return result.exitCode;
}

function buildProgram(options: CliOptions, result: CommandResult): Command {
  const program = new Command()
    .name("claudecm")
    .description("Session manager for Claude Code: named sessions you resume by number.")
    .version(VERSION, "-V, --version", "print the claudecm version")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput(outputOf(options))
    .addHelpText(
      "after",
      "\nOld forms still work: claudecm (list), claudecm N (resume N), claudecm n (new session\n" +
        "here), claudecm --proj DIR, and any other arguments, which start a new session and pass\n" +
        "them to claude.\n",
    );
  registerListCommand(program, options.makeContext, result);
  registerResumeCommand(program, options.makeContext, result);
  registerSearchCommand(program, options.makeContext, result);
  registerNewCommand(program, options.makeContext, result);
  registerRecoverCommand(program, options.makeContext, result);
  registerRescueCommand(program, options.makeContext, result);
  registerRecallCommand(program, options.makeContext, result);
  registerSkillCommand(program, options.makeContext, result);
  registerSkeletonCommand(program, options.makeContext, result);
  registerDoctorCommand(program, options.makeContext, result);
  registerFindCommand(program, options.makeContext, result);
  registerAdoptCommand(program, options.makeContext, result);
  for (const command of program.commands) command.exitOverride().configureOutput(outputOf(options));
  return program;
}

/**
 * Where commander writes. Its usage errors start `error: `; they get the
 * `claudecm: ` prefix every other error line has (main.ts), so scripts and
 * people see one form.
 */
function outputOf(options: CliOptions): {
  writeOut: (text: string) => void;
  writeErr: (text: string) => void;
  outputError: (text: string, write: (text: string) => void) => void;
} {
  return {
    writeOut: options.writeOut,
    writeErr: options.writeErr,
    outputError: (text, write) => write(`claudecm: ${text.replace(/^error: /, "")}`),
  };
}

function commanderExitCode(error: CommanderError): number {
  switch (error.code) {
    case "commander.helpDisplayed":
    case "commander.help":
    case "commander.version":
      return ExitCode.ok;
    default:
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
}
