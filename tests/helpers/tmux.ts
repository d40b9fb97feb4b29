/**
 * claudecm in a real terminal (tmux), read as a person sees it: `screen()` is
 * tmux's `capture-pane`, the rendered screen, so colour codes that reach the
 * terminal as codes are gone and codes shown as text (`^[[31m`) are there.
 * Each terminal runs on its own tmux server socket, so tests run in parallel.
 *
 * @module
 */

import { shellQuote } from "./real_claude.ts";
import { claudecmInvocation } from "./run_cli.ts";
import { toolAvailable } from "./test_tools.ts";

/** Whether tmux is here; tests that need it skip, with a note, where it is not (never under CI). */
export function tmuxAvailable(): boolean {
  return toolAvailable("tmux", "-V");
}

/** How {@linkcode openTmux} starts its terminal. */
export interface TmuxOptions {
  /** The environment claudecm runs with (a test world's `env`); TERM is set to `xterm-256color`. */
  env: Record<string, string>;
  cwd: string;
  columns?: number;
  rows?: number;
  /** Run this program instead of claudecm (a shell, to try completions as a person would). */
  command?: string[];
}

/** A running terminal: type into it, read its screen, close it. */
export interface TmuxTerminal {
  /** tmux `send-keys` arguments: key names (`Enter`, `Escape`, `C-c`, `Down`) or, with `literal`, text. */
  keys(keys: string[], options?: { literal?: boolean }): Promise<void>;
  /** The screen as shown, one string of lines; `escapes` keeps colour attributes as codes. */
  screen(options?: { escapes?: boolean }): Promise<string>;
  /** Wait until the screen matches `pattern` (10 s, then fail with the screen). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resize the terminal. */
  resize(columns: number, rows: number): Promise<void>;
  /** The exit code once the program ended (the pane stays, `remain-on-exit`), else undefined. */
  exitCode(): Promise<number | undefined>;
  /** End the terminal and its server. */
  close(): Promise<void>;
}

async function tmux(socket: string, args: string[]): Promise<string> {
  const output = await new Deno.Command("tmux", {
    args: ["-L", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(output.stderr).trim()}`);
  }
  return new TextDecoder().decode(output.stdout);
}

/**
 * Run `claudecm ...args` (or `options.command`) in a fresh tmux terminal of
 * `columns` x `rows` (100 x 30 by default).
 */
export async function openTmux(args: string[], options: TmuxOptions): Promise<TmuxTerminal> {
  const socket = `claudecm-test-${crypto.randomUUID()}`;
  const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
  const env = { ...options.env, TERM: "xterm-256color" };
  const exports = Object.entries(env).map(([name, value]) => `${name}=${shellQuote(value)}`);
  // tmux loses the exit status of some programs (deno's among them), so the shell writes it.
  const codeFile = Deno.makeTempFileSync({ prefix: "claudecm-tmux-code-" });
  const argv = options.command ?? [program, ...leading, ...args];
  const command = `env -i ${exports.join(" ")} ${argv.map(shellQuote).join(" ")}; echo $? > ${
    shellQuote(codeFile)
  }`;
  // remain-on-exit is set before the program starts, or a quick exit loses its status.
  await tmux(socket, [
    "-f",
    "/dev/null",
    "start-server",
    ";",
    "set-option",
    "-g",
    "remain-on-exit",
    "on",
    ";",
    "new-session",
    "-d",
    "-x",
    String(options.columns ?? 100),
    "-y",
    String(options.rows ?? 30),
    "-c",
    options.cwd,
    command,
  ]);
  const terminal: TmuxTerminal = {
    keys: async (keys, { literal } = {}) => {
      await tmux(socket, ["send-keys", "-t", "0", ...(literal ? ["-l"] : []), ...keys]);
    },
    screen: ({ escapes } = {}) =>
      tmux(socket, ["capture-pane", "-p", "-t", "0", ...(escapes ? ["-e"] : [])]),
    waitFor: async (pattern, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      let screen = "";
      while (Date.now() < deadline) {
        screen = await terminal.screen();
        if (pattern.test(screen)) return screen;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`the screen never showed ${pattern}:\n${screen}`);
    },
    resize: async (columns, rows) => {
      await tmux(socket, ["resize-window", "-t", "0", "-x", String(columns), "-y", String(rows)]);
    },
    exitCode: () => {
      const text = Deno.readTextFileSync(codeFile).trim();
      return Promise.resolve(text === "" ? undefined : Number(text));
    },
    close: async () => {
      // A program told to leave (Escape, q) may still be finishing its writes: let it end on its
      // own first, so the test's cleanup does not race it. One that will not end is killed.
      const deadline = Date.now() + 3_000;
      while (Date.now() < deadline && await terminal.exitCode() === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await tmux(socket, ["kill-server"]).catch(() => {});
      Deno.removeSync(codeFile);
    },
  };
  return terminal;
}
