/**
 * Line prompts. Input is read synchronously one byte at a time up to the
 * newline, so nothing meant for a later prompt, or for claude after us, is
 * consumed early (DESIGN.md 5.2). Deno's `prompt()` returns null on a piped
 * stdin, so it cannot serve scripted use.
 *
 * @module
 */

import type { Output } from "./output.ts";

/** Asks the user for a line of text. */
export interface Prompter {
  /** Show `question` and return the answer without its newline; null at end of input. */
  ask(question: string): string | null;
}

/** Reads one byte at a time; `Deno.stdin` in production. */
export interface ByteSource {
  readSync(buffer: Uint8Array): number | null;
}

/** A prompter that writes the question to `out` and reads a line from `input`. */
export function createLinePrompter(input: ByteSource, out: Output): Prompter {
  const decoder = new TextDecoder();
  return {
    ask(question) {
      out.write(question);
      const bytes: number[] = [];
      const one = new Uint8Array(1);
      while (true) {
        const count = input.readSync(one);
        if (count === null || count === 0) {
          // No Enter was echoed: end the question's line, or the next output runs on.
          out.write("\n");
          if (bytes.length === 0) return null;
          break;
        }
        if (one[0] === 0x0a) break;
        bytes.push(one[0]);
      }
      return decoder.decode(new Uint8Array(bytes)).replace(/\r$/, "");
    },
  };
}

/** A prompter answering from a fixed list, recording questions, for tests. */
export function createScriptedPrompter(answers: string[]): Prompter & { questions: string[] } {
  const queue = [...answers];
  const questions: string[] = [];
  return {
    questions,
    ask(question) {
      questions.push(question);
      return queue.length > 0 ? queue.shift()! : null;
    },
  };
}
