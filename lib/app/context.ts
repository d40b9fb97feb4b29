/**
 * The collaborators every flow receives, in the spirit of the GitHub CLI's
 * Factory: paths, clock, environment, output, prompts and the external tools
 * (claude, cmv). Tests build one with a temporary HOME and scripted answers
 * (and the fake tools, through CLAUDECM_CLAUDE/CLAUDECM_CMV); main.ts builds
 * the real one.
 *
 * @module
 */

import { UserError } from "../core/errors.ts";
import { logicalCwd } from "../core/folder_match.ts";
import { isNotFound } from "../core/fs_checks.ts";
import {
  claudeRootProblem,
  type EnvReader,
  type OsName,
  type Paths,
  resolvePaths,
} from "../core/paths.ts";
import { endingSignal } from "../platform/ending_signal.ts";
import { hostOs } from "../platform/os.ts";
import { stdinIsFile } from "../platform/stdin_kind.ts";
import { createTools, type Tools } from "../platform/tools.ts";
import { createOutput, type Output, streamWriter } from "../ui/output.ts";
import { createLinePrompter, type KeyTerminal, type Prompter } from "../ui/prompt.ts";

/** What a flow may use of the world outside it. */
export interface AppContext {
  paths: Paths;
  env: EnvReader;
  /** Sets a variable for this process and the children it starts. */
  setEnv: (name: string, value: string) => void;
  /** The complete environment of the children this process starts (git's, claude's). */
  childEnv: () => Record<string, string>;
  os: OsName;
  /** Where the user is: the shell's logical PWD when it names the process's cwd. */
  cwd: () => string;
  now: () => Date;
  hostname: () => string;
  out: Output;
  err: Output;
  prompter: Prompter;
  /**
   * Whether a person is at the terminal: stdin and stdout are TTYs. With
   * stdout in a pipe (`claudecm list | grep x`) a question would go into the
   * pipe, unseen, and the run would wait for an answer nobody knows is asked.
   */
  interactive: boolean;
  /**
   * stdin is a TTY: a person may be typing even when stdout goes to a pipe,
   * where a question would not be seen (so a step that must ask refuses).
   */
  keyboard: boolean;
  /** claude and cmv, found on first use. */
  tools: Tools;
  /**
   * This context as a launch's ({@linkcode launchContext}); absent where that
   * is the same context (a test's, whose outputs are not streams).
   */
  asLaunch?: () => AppContext;
}

/**
 * Where claudecm's own lines go (a note of what it did on the way, not what
 * the command was asked for): stdout in a terminal, else stderr, so a piped
 * or redirected stdout carries only the table, the JSON or claude's answer
 * the user asked for (issue 31 defect 13).
 */
export function statusOut(ctx: Pick<AppContext, "out" | "err">): Output {
  return ctx.out.terminal ? ctx.out : ctx.err;
}

/**
 * The context a launch runs in: with stdout not a terminal, all claudecm
 * says from here on, its questions too, goes to stderr, so stdout holds only
 * what claude writes (issue 31 defect 13). A command that always launches
 * has it from the start ({@linkcode ContextOptions.launches}); a pick that
 * launches from a menu, a search or find (`resumePicked`, `resumeFound`, a
 * new project) moves to it there, where the menu's dialogue ends.
 */
export function launchContext(ctx: AppContext): AppContext {
  return ctx.asLaunch?.() ?? ctx;
}

/**
 * The context a `--json` command runs its flow in: all it says goes to
 * stderr, leaving `ctx.out` to the one JSON document, and nothing is asked:
 * every question gets the answer of nobody there (its default, or No), and
 * steps that need a person take that no answer too (DESIGN.md 5.2).
 */
export function jsonRunContext(ctx: AppContext): AppContext {
  return {
    ...ctx,
    out: ctx.err,
    prompter: { ask: () => null },
    interactive: false,
    keyboard: false,
    asLaunch: undefined,
  };
}

/**
 * The process's folder. Another window may remove it while claudecm waits at
 * a prompt (a `git worktree remove`): that is the user's to fix, in one line.
 */
function currentFolder(): string {
  try {
    return Deno.cwd();
  } catch (error) {
    if (error instanceof Deno.errors.InvalidData) {
      // Linux allows any bytes in a name; a path claudecm cannot spell cannot be registered.
      throw new UserError(
        "the folder you are in has a name that is not valid UTF-8, which claudecm cannot " +
          "record; run it from another folder (or rename this one)",
      );
    }
    if (!isNotFound(error)) throw error;
    throw new UserError(
      "the folder you are in no longer exists (removed or moved meanwhile); cd into one that does",
    );
  }
}

/** stdout's terminal width; undefined when it is not a terminal or reports no size. */
function terminalColumns(): number | undefined {
  if (!Deno.stdout.isTerminal()) return undefined;
  try {
    const { columns } = Deno.consoleSize();
    return columns > 0 ? columns : undefined;
  } catch {
    return undefined;
  }
}

/** stdin as a terminal a prompt reads keys from; undefined when it is a pipe or a file. */
function keyTerminal(): KeyTerminal | undefined {
  if (!Deno.stdin.isTerminal()) return undefined;
  // Typed keys are shown where the question is, the terminal's stdout, else its stderr.
  const echo = Deno.stdout.isTerminal() ? Deno.stdout : Deno.stderr;
  return {
    setRaw: (raw) => Deno.stdin.setRaw(raw),
    echo: (bytes) => void echo.writeSync(bytes),
  };
}

/** How a command wants its context (see {@linkcode createProcessContext}). */
export interface ContextOptions {
  /**
   * The command starts claude (`new`, `resume`): its context is a launch's
   * ({@linkcode launchContext}) from the start, so with stdout not a
   * terminal (`claudecm new -- -p "..." > answer.txt`, from a terminal or a
   * script) what claudecm says goes to stderr, beside its questions when a
   * person is there, and stdout holds only what claude wrote.
   */
  launches?: boolean;
  /**
   * The command is a menu (list mode): its table and dialogue are what its
   * stdout was asked for, piped or not, except for a person at the keyboard
   * whose stdout is piped, who reads them on stderr. A pick moves on to the
   * launch's context.
   */
  menu?: boolean;
}

/** Where a real run's output goes: stdout's and stderr's writers, which the runner may watch. */
export interface ProcessStreams {
  writeOut: (text: string) => void;
  writeErr: (text: string) => void;
}

/** The context of a real run: process environment, real terminal. */
export function createProcessContext(
  streams: ProcessStreams = {
    writeOut: streamWriter(Deno.stdout),
    writeErr: streamWriter(Deno.stderr),
  },
  options: ContextOptions = {},
): AppContext {
  const env: EnvReader = (name) => Deno.env.get(name);
  const colour = env("NO_COLOR") === undefined;
  const err = createOutput(streams.writeErr, {
    colour,
    terminal: Deno.stderr.isTerminal(),
  });
  const stdoutTerminal = Deno.stdout.isTerminal();
  // A person at the keyboard whose output goes to a file reads the terminal's stderr.
  const personOnStderr = Deno.stdin.isTerminal() && !stdoutTerminal;
  const stdout = createOutput(streams.writeOut, {
    colour,
    terminal: stdoutTerminal,
    columns: terminalColumns(),
  });
  // A launch's redirected stdout holds only what claude wrote, whoever (or nothing) is on stdin.
  const launchOut = stdoutTerminal ? stdout : err;
  // The real environment: every flow and decision below gets the OS from here (ctx.os).
  const os = hostOs;
  const paths = resolvePaths(env, os);
  const rootProblem = claudeRootProblem(paths, env);
  if (rootProblem !== null) throw new UserError(rootProblem);
  const tools = createTools({
    env,
    childEnv: () => Deno.env.toObject(),
    // Probes and the editor start where this process is, which needs no name for it.
    cwd: () => undefined,
    os,
    paths,
  });
  const contextOn = (out: Output): AppContext => {
    const ctx: AppContext = {
      paths,
      env,
      setEnv: (name, value) => Deno.env.set(name, value),
      childEnv: () => Deno.env.toObject(),
      os,
      cwd: () => logicalCwd(currentFolder(), env("PWD"), os),
      now: () => new Date(),
      hostname: () => Deno.hostname(),
      out,
      err,
      prompter: unansweredAfterEnding(
        createLinePrompter(Deno.stdin, personOnStderr ? err : out, {
          terminal: keyTerminal(),
          inputIsFile: stdinIsFile,
        }),
      ),
      interactive: Deno.stdin.isTerminal() && stdoutTerminal,
      keyboard: Deno.stdin.isTerminal(),
      tools,
      asLaunch: () => out === launchOut ? ctx : contextOn(launchOut),
    };
    return ctx;
  };
  if (options.launches) return contextOn(launchOut);
  // A menu's dialogue is what its stdout was asked for, except for a person reading stderr.
  return contextOn(options.menu && personOnStderr ? err : stdout);
}

/**
 * After a closed terminal or a SIGTERM (platform/ending_signal.ts) nobody is
 * there to answer: every question gets what the end of input gets.
 */
function unansweredAfterEnding(prompter: Prompter): Prompter {
  return { ask: (question) => endingSignal() === null ? prompter.ask(question) : null };
}
