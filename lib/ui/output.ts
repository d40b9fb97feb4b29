/**
 * Text output with the spec's sparing colours (section 13). Colour is off
 * when NO_COLOR is set or the stream is not a terminal.
 *
 * @module
 */

import { visibleText } from "../core/safe_text.ts";

/** The colours the spec uses, each for one kind of message; `highlight` marks a search hit. */
export type Colour = "yellow" | "red" | "green" | "cyan" | "darkGray" | "highlight";

/** A piece of a line: plain text, or text in a colour. */
export type Segment = string | { text: string; colour: Colour };

const CODES: Record<Colour, string> = {
  yellow: "\x1b[33m",
  red: "\x1b[31m",
  green: "\x1b[32m",
  cyan: "\x1b[36m",
  darkGray: "\x1b[90m",
  highlight: "\x1b[1;33m",
};

/**
 * Where a command writes what it shows. Every control character in the text
 * is shown visibly except newline and tab (DESIGN.md 5.17): text from a
 * transcript, a file name or the registry can never drive the terminal.
 */
export interface Output {
  /** Write text (no newline added). */
  write(text: string): void;
  /** Write one line, optionally coloured. */
  line(text?: string, colour?: Colour): void;
  /** Write one line made of pieces, each in its own colour (the text of each made safe). */
  lineOf(segments: readonly Segment[]): void;
  /** Write text that redraws in place: carriage return and backspace act (spinners, bars). */
  redraw(text: string): void;
  /** Whether a terminal shows it, so in-place animation (a spinner) makes sense. */
  terminal: boolean;
  /** The terminal's width in columns; undefined when not a terminal or not known. */
  columns?: number;
}

/** An output over a write function; colour only where `terminal` and colour is wanted. */
export function createOutput(
  write: (text: string) => void,
  options: { colour: boolean; terminal: boolean; columns?: number },
): Output {
  const colour = options.colour && options.terminal;
  return {
    write: (text) => write(visibleText(text)),
    redraw: (text) => write(visibleText(text, "\n\t\r\b")),
    terminal: options.terminal,
    columns: options.columns,
    line(text = "", name) {
      write(`${painted(visibleText(text), colour ? name : undefined)}\n`);
    },
    lineOf(segments) {
      const pieces = segments.map((piece) =>
        typeof piece === "string"
          ? visibleText(piece)
          : painted(visibleText(piece.text), colour ? piece.colour : undefined)
      );
      write(`${pieces.join("")}\n`);
    },
  };
}

function painted(text: string, colour: Colour | undefined): string {
  return colour === undefined ? text : `${CODES[colour]}${text}\x1b[0m`;
}

/** An output that collects everything written, for tests. */
export function createMemoryOutput(): Output & { text(): string } {
  let buffer = "";
  const output = createOutput((text) => buffer += text, { colour: false, terminal: false });
  return { ...output, text: () => buffer };
}

/** Synchronous writer for a Deno stream (stdout or stderr). */
export function streamWriter(
  stream: { writeSync(bytes: Uint8Array): number },
): (t: string) => void {
  const encoder = new TextEncoder();
  return (text) => {
    const bytes = encoder.encode(text);
    let written = 0;
    while (written < bytes.length) written += stream.writeSync(bytes.subarray(written));
  };
}
