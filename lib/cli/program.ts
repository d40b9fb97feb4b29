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
import { commandTypo, translateLegacyArgs } from "./legacy.ts";
import { listCommand } from "./list.ts";
import { moveCommand } from "./move.ts";
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

/** `version`: answered here, like `--version`, without a context (no HOME needed). */
const VERSION_COMMAND: CommandSpec = {
  name: "version",
  description: "print claudecm's version and, on the next line, claude's (also -v, -V, --version)",
};

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
    VERSION_COMMAND,
    moveCommand,
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
  let parsed;
  try {
    parsed = parseCommandLine(PROGRAM, translateLegacyArgs(args));
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

/** `word`, quoted when a shell would split it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** claudecm's version, then claude's when it is found (main.ts does the same for `--version`). */
async function printVersions(writeOut: (text: string) => void): Promise<number> {
  writeOut(`${VERSION}\n`);
  const { claudeVersionLine } = await import("../app/version/claude_version.ts");
  const line = await claudeVersionLine(Deno.env.toObject(), {
    os: Deno.build.os,
    cwd: Deno.cwd(),
  });
  if (line !== null) writeOut(`${line}\n`);
  return ExitCode.ok;
}
