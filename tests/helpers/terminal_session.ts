/**
 * claudecm in a pseudo-terminal (util-linux `script`), typed at step by step:
 * each step waits for text on the screen, then types its keys, so a Ctrl-C
 * reaches claudecm at the prompt it is meant for, not while claude runs.
 *
 * @module
 */

import type { LaunchWorld } from "./launch_world.ts";
import { shellQuote } from "./real_claude.ts";
import { claudecmInvocation } from "./run_cli.ts";

const TIMEOUT_MS = 30_000;

/** Wait for `waitFor` on the screen, then type `keys`. */
export interface TerminalStep {
  waitFor: RegExp;
  keys: string;
}

/** How the terminal run ended and everything it showed. */
export interface TerminalRun {
  code: number;
  screen: string;
}

/** How {@linkcode typeInTerminal} runs claudecm. */
export interface TerminalOptions {
  steps: TerminalStep[];
  /** The terminal's width. */
  columns?: number;
  /** Shell text after the command: `| cat` pipes its output, `> FILE` sends it to a file. */
  shellAfter?: string;
  /** Where it runs; the world's project folder by default. */
  cwd?: string;
}

/**
 * Run claudecm with `args` in a terminal, typing `steps` in order. A run that
 * waits for keys no step types is killed after 30 s (its code is then 137).
 */
export async function typeInTerminal(
  world: LaunchWorld,
  args: string[],
  { steps, columns, shellAfter, cwd }: TerminalOptions,
): Promise<TerminalRun> {
  const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
  const command = (columns === undefined ? "" : `stty cols ${columns}; `) +
    [program, ...leading, ...args].map(shellQuote).join(" ") +
    (shellAfter === undefined ? "" : ` ${shellAfter}`);
  const child = new Deno.Command("script", {
    args: ["-qfec", command, "/dev/null"],
    env: { ...world.env, TERM: "dumb" },
    clearEnv: true,
    cwd: cwd ?? world.project,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  // A step that never matches must fail the test, not hang it.
  const deadline = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let screen = "";
  let unread = "";
  let ended = false;
  for (const step of steps) {
    while (!ended && !step.waitFor.test(unread)) {
      const chunk = await reader.read();
      if (chunk.done) ended = true;
      else unread += decoder.decode(chunk.value);
    }
    if (ended) break;
    screen += unread;
    unread = "";
    // A person reads the question first; keys typed ahead of it may reach the terminal
    // before claudecm reads keys itself.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writer.write(new TextEncoder().encode(step.keys)).catch(() => ended = true);
  }
  await writer.close().catch(() => {});
  while (true) {
    const chunk = await reader.read();
    if (chunk.done) break;
    unread += decoder.decode(chunk.value);
  }
  const status = await child.status;
  clearTimeout(deadline);
  return { code: status.code, screen: screen + unread };
}
