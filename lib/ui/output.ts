/**
 * Text output with the spec's sparing colours (section 13). Colour is off
 * when NO_COLOR is set or the stream is not a terminal.
 *
 * @module
 */

/** The colours the spec uses, each for one kind of message. */
export type Colour = "yellow" | "red" | "green" | "cyan" | "darkGray";

const CODES: Record<Colour, string> = {
  yellow: "\x1b[33m",
  red: "\x1b[31m",
  green: "\x1b[32m",
  cyan: "\x1b[36m",
  darkGray: "\x1b[90m",
};

/** Where a command writes what it shows. */
export interface Output {
  /** Write text as is. */
  write(text: string): void;
  /** Write one line, optionally coloured. */
  line(text?: string, colour?: Colour): void;
  /** Whether a terminal shows it, so in-place animation (a spinner) makes sense. */
  terminal: boolean;
}

/** An output over a write function; colour only where `terminal` and colour is wanted. */
export function createOutput(
  write: (text: string) => void,
  options: { colour: boolean; terminal: boolean },
): Output {
  const colour = options.colour && options.terminal;
  return {
    write,
    terminal: options.terminal,
    line(text = "", name) {
      write(name && colour ? `${CODES[name]}${text}\x1b[0m\n` : `${text}\n`);
    },
  };
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
