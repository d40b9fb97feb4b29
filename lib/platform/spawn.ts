/**
 * Starting claude and cmv. Three shapes, each taking the child's cwd and its
 * complete environment explicitly (nothing is inherited implicitly):
 *
 * - {@linkcode spawnInteractive}: claude owns the terminal. stdio is
 *   inherited (claude must see a real TTY, and its output is never captured:
 *   spec 14.2), claudecm reads no stdin meanwhile, and SIGINT is ignored by
 *   claudecm while the child runs, so Ctrl-C reaches claude and claudecm
 *   lives to record the exit (DESIGN.md 5.2). Returns the pid at once, so
 *   the caller can read `sessions/<pid>.json` while claude runs.
 * - {@linkcode runCaptured}: `claude -p`, `cmv benchmark`, `claude --help`:
 *   output captured, optional stdin text (prompts go on stdin, never argv,
 *   because of the Windows command-line length limit), optional timeout. A
 *   timeout ends the child's whole process tree: a grandchild (the node
 *   behind a shell shim, or anything it started) holding the output pipe
 *   would otherwise keep the run waiting forever. On POSIX a timed child
 *   runs in a process group of its own, which gets the signal (and a Ctrl-C
 *   is passed on to it, as the terminal would have: the run then ends with
 *   InterruptedError once the child is gone); on Windows `taskkill /T /F`
 *   ends the tree. Once the child has exited, its output pipes get a short
 *   grace period, not forever (pipe_output.ts).
 * - {@linkcode runQuerySync}: a quick read-only question (recall's git
 *   queries): synchronous, output captured, no stdin, no timeout.
 * - {@linkcode spawnBackground}: the exit snapshot. Like runCaptured, but on
 *   POSIX in its own session (detached), so a Ctrl-C at the spinner or a
 *   closed terminal does not kill a snapshot half written.
 *
 * A `.cmd`/`.bat` on Windows runs through cmd.exe with a command line we
 * build (lib/platform/windows_argv.ts); see {@linkcode planSpawn}.
 *
 * @module
 */

import { InterruptedError, UserError } from "../core/errors.ts";
import type { OsName } from "../core/paths.ts";
import { endingSignal, holdEndingSignals } from "./ending_signal.ts";
import { hostOs } from "./os.ts";
import { drainAfterExit, readPipe } from "./pipe_output.ts";
import { passOnInterrupt, treeKiller } from "./process_tree.ts";
import { buildCmdCommandLine, isBatchScript } from "./windows_argv.ts";

/** Where and with what environment a child runs. */
export interface SpawnOptions {
  /** Where the child starts; where this process is when undefined. */
  cwd: string | undefined;
  /** The child's whole environment. */
  env: Record<string, string>;
  /** Defaults to the running OS; tests pass another to check the plan. */
  os?: OsName;
}

/** A child that owns the terminal. */
export interface RunningChild {
  pid: number;
  /** The exit code; 128 + signal number when a signal ended it (130 for SIGINT). */
  status: Promise<number>;
}

/** What a captured run produced. */
export interface CapturedResult {
  code: number;
  stdout: string;
  stderr: string;
  /** True when the run was killed for exceeding its timeout. */
  timedOut: boolean;
}

/** Options for {@linkcode runCaptured}. */
export interface CaptureOptions extends SpawnOptions {
  /** Text written to the child's stdin, then closed; stdin is empty otherwise. */
  stdin?: string;
  /** End the child and everything it started after this long. */
  timeoutMs?: number;
}

/** A tool that did not answer in time, as one line (`... timed out after 30 s`). */
export class ToolTimeoutError extends UserError {
  constructor(what: string, timeoutMs: number) {
    super(`${what} timed out after ${timeoutMs / 1000} s`);
    this.name = "ToolTimeoutError";
  }
}

/** A captured run going on in the background. */
export interface BackgroundRun {
  pid: number;
  result: Promise<CapturedResult>;
}

/** How Deno should start a program. */
export interface SpawnPlan {
  command: string;
  args: string[];
  windowsRawArguments: boolean;
}

/**
 * How to start `path` with `args` on `os`. A Windows `.cmd`/`.bat` cannot be
 * started by CreateProcess with safely quoted arguments, so it runs as
 * `cmd.exe /d /s /c "<line>"`, raw, with the line built by
 * buildCmdCommandLine. Everything else is started directly and Deno quotes
 * its arguments.
 */
export function planSpawn(
  path: string,
  args: string[],
  { os, env }: { os: OsName; env: Record<string, string> },
): SpawnPlan {
  if (os === "windows" && isBatchScript(path)) {
    const comSpec = env.ComSpec ?? env.COMSPEC ?? "cmd.exe";
    return {
      command: comSpec,
      args: ["/d", "/s", "/c", `"${buildCmdCommandLine(path, args)}"`],
      windowsRawArguments: true,
    };
  }
  return { command: path, args, windowsRawArguments: false };
}

/** Start an interactive child that owns the terminal; see the module doc. */
export function spawnInteractive(
  path: string,
  args: string[],
  options: SpawnOptions,
): RunningChild {
  const plan = planSpawn(path, args, { os: options.os ?? hostOs, env: options.env });
  const release = ignoreSigint();
  let child: Deno.ChildProcess;
  try {
    child = command(plan, options, { stdin: "inherit", stdout: "inherit", stderr: "inherit" })
      .spawn();
  } catch (error) {
    release();
    throw spawnError(path, error);
  }
  // A closed terminal or a SIGTERM ends claude; claudecm outlives it to leave things right
  // (a row written ahead for a session claude never saved goes again). A SIGTERM sent to
  // claudecm alone is passed on.
  const releaseEnding = holdEndingSignals((signal) => {
    try {
      Deno.kill(child.pid, signal);
    } catch {
      // Already gone.
    }
  });
  // The Ctrl-C that ended the child reached claudecm too, and Deno hands it to listeners
  // asynchronously: releasing at once could leave that SIGINT with no listener, and Deno
  // then exits. Keep ignoring it a moment longer. A closed terminal's SIGHUP likewise gets a
  // moment to be noted, but its hold goes before the status is told: a question may follow,
  // whose blocking read would keep a SIGTERM sent then from ever being heard.
  const status = child.status.then(async (s) => {
    await new Promise((resolve) => setTimeout(resolve, ENDING_GRACE_MS));
    releaseEnding();
    return s.code;
  }).finally(() => {
    setTimeout(release, SIGINT_GRACE_MS);
  });
  return { pid: child.pid, status };
}

/** Run a child to completion with its output captured. */
export async function runCaptured(
  path: string,
  args: string[],
  options: CaptureOptions,
): Promise<CapturedResult> {
  return await startCaptured(path, args, options, false).result;
}

/** What a quick query answered. */
export interface QueryAnswer {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run a quick query to completion, synchronously, its output captured and no
 * stdin (recall's read-only git questions, which answer at once: no timeout
 * and no tree to end). A program that cannot start throws Deno's error
 * (`NotFound` when it is not there), so the caller can say what is missing.
 */
export function runQuerySync(path: string, args: string[], options: SpawnOptions): QueryAnswer {
  const plan = planSpawn(path, args, { os: options.os ?? hostOs, env: options.env });
  const output = command(plan, options, { stdin: "null", stdout: "piped", stderr: "piped" })
    .outputSync();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Start a captured run that survives Ctrl-C and a closed terminal (POSIX); see the module doc. */
export function spawnBackground(
  path: string,
  args: string[],
  options: SpawnOptions & { timeoutMs?: number },
): BackgroundRun {
  return startCaptured(path, args, options, true);
}

function startCaptured(
  path: string,
  args: string[],
  options: CaptureOptions,
  detached: boolean,
): BackgroundRun {
  const os = options.os ?? hostOs;
  const plan = planSpawn(path, args, { os, env: options.env });
  const timed = options.timeoutMs !== undefined;
  // Windows would open a console window for a detached node shim; there the
  // snapshot stays attached, and taskkill finds a timed child's tree by parent.
  const ownGroup = os !== "windows" && (detached || timed);
  let child: Deno.ChildProcess;
  try {
    child = command(plan, options, {
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      detached: ownGroup,
    }).spawn();
  } catch (error) {
    throw spawnError(path, error);
  }
  const tree = treeKiller(child, os);
  let interrupted = false;
  // The background snapshot must outlive a Ctrl-C; a timed run stops with claudecm, and
  // ends as cancelled when the terminal closes or claudecm gets a SIGTERM, as for Ctrl-C.
  const stopAsCancelled = () => {
    interrupted = true;
    tree.stop();
  };
  const releaseInterrupt = ownGroup && !detached
    ? passOnInterrupt(child.pid, {
      ignoredHere: () => sigintGuards > 0,
      onInterrupt: stopAsCancelled,
    })
    : () => {};
  const releaseEnding = ownGroup && !detached ? holdEndingSignals(stopAsCancelled) : () => {};
  let timedOut = false;
  const timer = !timed ? undefined : setTimeout(() => {
    timedOut = true;
    tree.stop();
  }, options.timeoutMs);
  const result = (async () => {
    try {
      const pipes = [readPipe(child.stdout), readPipe(child.stderr)];
      if (options.stdin !== undefined) await writeAndClose(child.stdin, options.stdin);
      const { code } = await child.status;
      // Another process may hold a copy of a pipe (pipe_output.ts): stop waiting soon after exit.
      const [stdout, stderr] = await drainAfterExit(pipes);
      // What cancelled it, as it was: a SIGTERM or a closed terminal is no Ctrl-C.
      if (interrupted) throw new InterruptedError(endingSignal() ?? "Ctrl-C");
      const decoder = new TextDecoder();
      return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr), timedOut };
    } finally {
      clearTimeout(timer);
      releaseInterrupt();
      releaseEnding();
      // Whatever of the tree outlived the pipes goes too.
      if (timedOut || interrupted) tree.finish();
    }
  })();
  return { pid: child.pid, result };
}

function command(
  plan: SpawnPlan,
  options: SpawnOptions,
  extra: Omit<Deno.CommandOptions, "args" | "cwd" | "env">,
): Deno.Command {
  return new Deno.Command(plan.command, {
    ...extra,
    args: plan.args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    windowsRawArguments: plan.windowsRawArguments,
  });
}

async function writeAndClose(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // The child exited without reading all of its input; its exit code tells the story.
  }
}

/** A spawn failure as one line the user can act on. */
function spawnError(path: string, error: unknown): UserError {
  if (error instanceof Deno.errors.NotFound) return new UserError(`cannot run ${path}: not found`);
  if (error instanceof Deno.errors.PermissionDenied) {
    return new UserError(`cannot run ${path}: permission denied`);
  }
  return new UserError(
    `cannot run ${path}: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** How long SIGINT stays ignored after the child ends. */
export const SIGINT_GRACE_MS = 250;

/** How long a SIGHUP or SIGTERM that ended the child has to be noted once it has exited. */
const ENDING_GRACE_MS = 100;

let sigintGuards = 0;
const ignore = () => {};

/**
 * Ignore SIGINT until the returned function is called. Counted, so two
 * children running at once do not unguard each other. Deno supports a SIGINT
 * listener on Windows too (it stands for Ctrl-C there, via the console control
 * handler), and without one Ctrl-C would end claudecm along with claude.
 */
function ignoreSigint(): () => void {
  if (sigintGuards++ === 0) Deno.addSignalListener("SIGINT", ignore);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--sigintGuards === 0) Deno.removeSignalListener("SIGINT", ignore);
  };
}
