/**
 * claudecm in a conversation: answers are sent one at a time, after the
 * question they answer has been printed, so a test can play "the other
 * window" between seeing a question and answering it (a claude started, a
 * row registered, a transcript appended to).
 *
 * @module
 */

import { claudecmCommand, type RunResult } from "./run_cli.ts";

/** A running claudecm that a test talks to. */
export interface Dialogue {
  /**
   * Wait (up to 20 s) until what the terminal would show so far matches
   * `pattern`: stdout, or stderr, where a launching command says its own
   * lines when stdout is not a terminal.
   */
  waitFor(pattern: RegExp): Promise<void>;
  /** Type `text` (include the newline). */
  send(text: string): Promise<void>;
  /** Close stdin and wait for the exit. */
  finish(): Promise<RunResult>;
}

/** Start `claudecm ...args` in `cwd` with `env`. */
export function startDialogue(
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): Dialogue {
  const child = claudecmCommand(args, options).spawn();
  const writer = child.stdin.getWriter();
  let stdout = "";
  let stderr = "";
  // One decoder per stream: a character split across chunks must not meet the other stream's bytes.
  const pump = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const reading = Promise.all([
    pump(child.stdout, (text) => stdout += text),
    pump(child.stderr, (text) => stderr += text),
  ]);
  return {
    async waitFor(pattern) {
      const deadline = Date.now() + 20_000;
      while (!pattern.test(stdout) && !pattern.test(stderr)) {
        if (Date.now() > deadline) {
          throw new Error(
            `timed out waiting for ${pattern}; stdout:\n${stdout}\nstderr:\n${stderr}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async send(text) {
      await writer.write(new TextEncoder().encode(text));
    },
    async finish() {
      await writer.close();
      const status = await child.status;
      await reading;
      return { code: status.code, signal: status.signal, stdout, stderr };
    },
  };
}
