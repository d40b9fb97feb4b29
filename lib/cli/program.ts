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
import { adoptCommand } from "./adopt.ts";
import { doctorCommand } from "./doctor.ts";
import { findCommand } from "./find.ts";
import { formatHelp } from "./help.ts";
import { translateLegacyArgs } from "./legacy.ts";
import { listCommand } from "./list.ts";
import { newCommand } from "./new.ts";
import { CommandLineError, parseCommandLine } from "./parse_args.ts";
import { recallCommand } from "./recall.ts";
import { recoverCommand } from "./recover.ts";
import { rescueCommand } from "./rescue.ts";
import { restoreCommand } from "./restore.ts";
import { resumeCommand } from "./resume.ts";
import { searchCommand } from "./search.ts";
import { skeletonCommand } from "./skeleton.ts";
import { skillCommand } from "./skill.ts";
import { vaultCommand } from "./vault.ts";

/** How {@linkcode runCli} reaches the world. */
export interface CliOptions {
  makeContext: ContextFactory;
  /** Where help and version go. */
  writeOut: (text: string) => void;
  /** Where usage errors go. */
  writeErr: (text: string) => void;
}

const PROGRAM: CommandSpec = {
  name: "claudecm",
  description: "Session manager for Claude Code: named sessions you resume by number.",
  subcommands: [
    listCommand,
    resumeCommand,
    searchCommand,
    newCommand,
    recoverCommand,
    rescueCommand,
    recallCommand,
    skillCommand,
    skeletonCommand,
    doctorCommand,
    findCommand,
    adoptCommand,
    vaultCommand,
    restoreCommand,
  ],
  helpAfter:
    "\nOld forms still work: claudecm (list), claudecm N (resume N), claudecm n (new session\n" +
    "here), claudecm --proj DIR, and any other arguments, which start a new session and pass\n" +
    "them to claude.\n",
};

const PROGRAM_OPTIONS = [{ term: "-V, --version", description: "print the claudecm version" }];

/**
 * Run claudecm with `args` (without the program name); returns the exit
 * code. A command line that does not parse gets one `claudecm: ` line on
 * stderr and exit 2.
 */
export async function runCli(args: readonly string[], options: CliOptions): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(PROGRAM, translateLegacyArgs(args));
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    options.writeErr(`claudecm: ${error.message}\n`);
    return ExitCode.usage;
  }
  switch (parsed.kind) {
    case "version":
      options.writeOut(`${VERSION}\n`);
      return ExitCode.ok;
    case "help": {
      const text = formatHelp(parsed.command, {
        program: PROGRAM.name,
        path: parsed.path,
        programOptions: parsed.command === PROGRAM ? PROGRAM_OPTIONS : [],
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
