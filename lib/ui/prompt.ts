/**
 * Line prompts. Input is read synchronously one byte at a time up to the
 * newline, so nothing meant for a later prompt, or for claude after us, is
 * consumed early (DESIGN.md 5.2). Deno's `prompt()` returns null on a piped
 * stdin, so it cannot serve scripted use.
 *
 * A prompt is a cancel point (DESIGN.md 5.14). On a terminal the line is
 * read with the terminal out of line mode, so Ctrl-C and Ctrl-D arrive as
 * bytes: in line mode Ctrl-C is a SIGINT, which Deno hands to JavaScript only
 * once the blocking read returns, and the terminal meanwhile drops the half
 * typed line and keeps reading, so the next line typed went in instead.
 *
 * @module
 */

import { InterruptedError } from "../core/errors.ts";
import { displayWidth } from "./text_width.ts";
import type { Output } from "./output.ts";

/** Asks the user for a line of text. */
export interface Prompter {
  /**
   * Show `question` and return the answer without its newline; null at end of
   * input. Throws InterruptedError when the user presses Ctrl-C.
   */
  ask(question: string): string | null;
}

/** Reads one byte at a time; `Deno.stdin` in production. */
export interface ByteSource {
  readSync(buffer: Uint8Array): number | null;
}

/** The terminal a prompt reads keys from: switched out of line mode while it reads. */
export interface KeyTerminal {
  setRaw(raw: boolean): void;
  /** Show what was typed (the terminal no longer echoes it). */
  echo(bytes: Uint8Array): void;
}

/** Options for {@linkcode createLinePrompter}. */
export interface LinePrompterOptions {
  /** Set when the input is a terminal; without it the input is read as lines (pipes, files). */
  terminal?: KeyTerminal;
  /**
   * Whether the input (not a terminal) is a file or a device such as
   * /dev/null, whose end is there at once: a question is then shown only to
   * an answer that is there. A pipe may be a program that answers what it
   * reads (expect), so questions on a pipe are shown first.
   */
  inputIsFile?: () => boolean;
}

const CTRL_C = 0x03;
const CTRL_D = 0x04;
const CTRL_U = 0x15;
const ESC = 0x1b;
const BACKSPACES = new Set([0x08, 0x7f]);
const NEWLINES = new Set([0x0a, 0x0d]);

/** A prompter that writes the question to `out` and reads a line from `input`. */
export function createLinePrompter(
  input: ByteSource,
  out: Output,
  options: LinePrompterOptions = {},
): Prompter {
  const decoder = new TextDecoder();
  const { terminal } = options;
  return {
    ask(question) {
      if (terminal === undefined && options.inputIsFile?.() === true) {
        // Nobody at a terminal: a question is shown only when an answer is there to read. At the
        // end of input nobody can answer; the caller takes its default or refuses (issue 31.2).
        const line = readLine(input, { shown: () => out.write(question) });
        if (!line.shown) return null;
        if (line.endOfInput) out.write("\n");
        return decoder.decode(new Uint8Array(line.bytes)).replace(/\r$/, "");
      }
      // Out of line mode before the question shows, so no key typed at it is a SIGINT.
      const keys = terminal !== undefined && switchRaw(terminal, true) ? terminal : undefined;
      let line: TypedLine;
      try {
        out.write(question);
        line = keys === undefined ? readLine(input) : readKeys(input, keys);
      } finally {
        if (keys !== undefined) switchRaw(keys, false);
      }
      // No Enter was echoed: end the question's line, or the next output runs on.
      if (line.endOfInput) out.write("\n");
      if (line.endOfInput && line.bytes.length === 0) return null;
      return decoder.decode(new Uint8Array(line.bytes)).replace(/\r$/, "");
    },
  };
}

/** Switch the terminal's mode; false when it refuses (the line is then read as typed). */
function switchRaw(terminal: KeyTerminal, raw: boolean): boolean {
  try {
    terminal.setRaw(raw);
    return true;
  } catch {
    return false;
  }
}

/** A line as read, and whether the input ended before its newline. */
interface TypedLine {
  bytes: number[];
  endOfInput: boolean;
}

/** A line from a pipe or file; `shown` runs once its first byte is there (not at the end of input). */
function readLine(
  input: ByteSource,
  { shown }: { shown?: () => void } = {},
): TypedLine & { shown: boolean } {
  const bytes: number[] = [];
  const one = new Uint8Array(1);
  let first = true;
  while (true) {
    const count = input.readSync(one);
    if (count === null || count === 0) return { bytes, endOfInput: true, shown: !first };
    if (first && shown !== undefined) shown();
    first = false;
    if (one[0] === 0x0a) return { bytes, endOfInput: false, shown: true };
    bytes.push(one[0]);
  }
}

/**
 * A line typed at a terminal (in raw mode), with the editing line mode gave:
 * backspace, Ctrl-U, Enter. Ctrl-C cancels (InterruptedError); Ctrl-D on an
 * empty line is end of input; cursor keys and other escape sequences are
 * dropped.
 */
function readKeys(input: ByteSource, terminal: KeyTerminal): TypedLine {
  const bytes: number[] = [];
  const one = new Uint8Array(1);
  const next = (): number | null => {
    const count = input.readSync(one);
    return count === null || count === 0 ? null : one[0];
  };
  const echo = (text: string) => terminal.echo(new TextEncoder().encode(text));
  const erase = (removed: number[]) => {
    const width = displayWidth(new TextDecoder().decode(new Uint8Array(removed)));
    echo("\b \b".repeat(width));
  };
  while (true) {
    const byte = next();
    if (byte === null) return { bytes, endOfInput: true };
    if (byte === CTRL_C) {
      echo("^C\r\n");
      throw new InterruptedError();
    }
    if (byte === CTRL_D) {
      if (bytes.length === 0) return { bytes, endOfInput: true };
      continue;
    }
    if (NEWLINES.has(byte)) {
      echo("\r\n");
      return { bytes, endOfInput: false };
    }
    if (BACKSPACES.has(byte)) {
      erase(bytes.splice(lastCharacterStart(bytes)));
    } else if (byte === CTRL_U) {
      erase(bytes.splice(0));
    } else if (byte === ESC) {
      skipEscapeSequence(next);
    } else if (byte >= 0x20) {
      bytes.push(byte);
      terminal.echo(new Uint8Array([byte]));
    }
  }
}

/** Where the last UTF-8 character of `bytes` starts (continuation bytes are 10xxxxxx). */
function lastCharacterStart(bytes: number[]): number {
  let start = bytes.length - 1;
  while (start > 0 && (bytes[start] & 0xc0) === 0x80) start--;
  return Math.max(0, start);
}

/** Drop the rest of a key's escape sequence: `ESC [ ... final` or `ESC O x`. */
function skipEscapeSequence(next: () => number | null): void {
  const kind = next();
  if (kind === 0x4f) {
    next();
    return;
  }
  if (kind !== 0x5b) return;
  while (true) {
    const byte = next();
    if (byte === null || (byte >= 0x40 && byte <= 0x7e)) return;
  }
}

/**
 * A yes/no question. Enter takes `defaultYes`; end of input is always No,
 * never the default-yes action (DESIGN.md 5.14). With default yes anything
 * but an answer starting with n is yes; with default no only y or yes is.
 */
export function askYesNo(
  prompter: Prompter,
  question: string,
  { defaultYes }: { defaultYes: boolean },
): boolean {
  const answer = prompter.ask(question);
  if (answer === null) return false;
  const text = answer.trim();
  if (text === "") return defaultYes;
  return defaultYes ? !/^n/i.test(text) : /^y(es)?$/i.test(text);
}

/** A scripted answer that stands for Ctrl-C: the prompter throws InterruptedError. */
export const PRESS_CTRL_C = "\x03";

/** A prompter answering from a fixed list, recording questions, for tests. */
export function createScriptedPrompter(answers: string[]): Prompter & { questions: string[] } {
  const queue = [...answers];
  const questions: string[] = [];
  return {
    questions,
    ask(question) {
      questions.push(question);
      const answer = queue.length > 0 ? queue.shift()! : null;
      if (answer === PRESS_CTRL_C) throw new InterruptedError();
      return answer;
    },
  };
}
