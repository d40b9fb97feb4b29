/**
 * The command table's index: every claudecm command's name, one-line help,
 * synopsis and group, and where the rest of it (arguments, options with
 * their parsers, long help, run) is declared. The program's `--help`, the
 * typo guard and the old grammar's command words (legacy.ts), completions
 * and the man page all read this list, so a command is named in one place.
 * A command's own file loads only when a command line names it (program.ts),
 * or for the documents made from the whole table (`commandTable()`).
 *
 * @module
 */

import type { CommandSpec } from "./command.ts";

/** `version`: answered here, like `--version`, without a context (no HOME needed). */
export const VERSION_COMMAND: CommandSpec = {
  name: "version",
  description: "print claudecm's version and, on the next line, claude's (also -v, -V, --version)",
};

/** Where a command is listed in the program's help: the r-words under their own heading. */
export const RECOVERY_GROUP = "When a session is lost or broken (which one to use):";

/** Every command, in the order the program's help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "list",
    description: "the saved sessions; in a terminal, pick one to resume it",
    synopsis: "[options]",
    load: async () => (await import("./list.ts")).listCommand,
  },
  {
    name: "resume",
    description: "resume session #N of the list (old form: claudecm N), or one named by name or id",
    synopsis: "<session>",
    load: async () => (await import("./resume.ts")).resumeCommand,
  },
  {
    name: "fork",
    description: "go on with a session in a branch of it; the original stays as it was",
    synopsis: "[options] <session>",
    load: async () => (await import("./fork.ts")).forkCommand,
  },
  {
    name: "rename",
    description: "rename a session (R# in list mode's edit list)",
    synopsis: "[options] <session> <name>",
    load: async () => (await import("./rename.ts")).renameCommand,
  },
  {
    name: "archive",
    description: "move a session to the archived list (A#)",
    synopsis: "[options] <session>",
    load: async () => (await import("./archive.ts")).archiveCommand,
  },
  {
    name: "unarchive",
    description: "put an archived session back at #1 (U# in list mode's V)",
    synopsis: "[options] <session>",
    load: async () => (await import("./archive.ts")).unarchiveCommand,
  },
  {
    name: "delete",
    description: "delete a session and its transcript for good, after asking (D#)",
    synopsis: "[options] <session>",
    load: async () => (await import("./delete.ts")).deleteCommand,
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
    description:
      "claude crashed and the session will not resume: what it was doing, from its transcript",
    group: RECOVERY_GROUP,
    synopsis: "[options]",
    load: async () => (await import("./recover.ts")).recoverCommand,
  },
  {
    name: "rescue",
    description:
      'sessions died of "Prompt is too long": write threads to go on from, in a workspace',
    group: RECOVERY_GROUP,
    synopsis: "[options]",
    load: async () => (await import("./rescue.ts")).rescueCommand,
  },
  {
    name: "recall",
    description: "before going on with a session: what it did, checked against the repository now",
    group: RECOVERY_GROUP,
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
    description:
      "a session's transcript is gone (Claude Code's clean-up): put it back from the vault",
    group: RECOVERY_GROUP,
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
  {
    name: "completions",
    description: "print shell completions: bash, zsh, fish or powershell",
    synopsis: "<shell>",
    load: async () => (await import("./completions.ts")).completionsCommand,
  },
  {
    name: "man",
    description: "print the manual page (roff)",
    synopsis: "",
    load: async () => (await import("./man.ts")).manCommand,
  },
  {
    name: "__complete",
    description: "what completions offer for a session (used by the completion scripts)",
    synopsis: "<what>",
    hidden: true,
    load: async () => (await import("./completions.ts")).completeCommand,
  },
  VERSION_COMMAND,
  {
    name: "move",
    description: "after moving or renaming a project folder, move its sessions along",
    synopsis: "[options] <old> <new>",
    load: async () => (await import("./move.ts")).moveCommand,
  },
];

/** Every command's name, and `help`: the words a first argument is a command by. */
export const COMMAND_NAMES: readonly string[] = [
  ...COMMANDS.map((command) => command.name),
  "help",
];

/** The whole table: every command with what its own file declares (for completions, the man page). */
export async function commandTable(): Promise<CommandSpec[]> {
  return await Promise.all(COMMANDS.map(loadCommand));
}

/** `command` whole: its name and description with what its file declares. */
export async function loadCommand(command: CommandSpec): Promise<CommandSpec> {
  if (command.load === undefined) return command;
  const { load: _load, synopsis: _synopsis, ...named } = command;
  return { ...named, ...await command.load() };
}
