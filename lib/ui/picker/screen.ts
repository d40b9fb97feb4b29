/**
 * The picker's terminal shell: raw mode and the alternate screen for as long
 * as the picker is open, and the terminal exactly as it was after, on every
 * way out: a return, a throw, a Deno.exit elsewhere, and SIGTERM, SIGHUP or
 * SIGINT, which then end the run as a shell reports them. Keys come from one
 * read at a time, and a read is started only when the picker waits for a
 * key: once a key has decided to leave (Enter, an action that asks a
 * question), no read is pending that could take what is typed to claude or
 * a line prompt after it (DESIGN.md 5.2 and 5.20). Frames are drawn line by
 * line at absolute positions, only the lines that changed; a resize redraws
 * all of it.
 *
 * @module
 */

import { createKeyDecoder, type Key } from "./keys.ts";

/** The terminal the picker runs in; {@linkcode processTerminal} is the real one. */
export interface PickerTerminal {
  setRaw(raw: boolean): void;
  write(text: string): void;
  /** Read what was typed (raw bytes); null at end of input. */
  read(buffer: Uint8Array): Promise<number | null>;
  size(): { columns: number; lines: number };
  /** Hear the terminal being resized; returns the function that stops listening. */
  onResize(listener: () => void): () => void;
  /**
   * Hear a signal that ends the run (SIGTERM, SIGHUP) with its exit code;
   * returns the function that stops listening.
   */
  onEnding(listener: (exitCode: number) => void): () => void;
  /** End the process with `code` (after the terminal is restored). */
  exit(code: number): never;
}

/** What the picker waits for. */
export type ScreenEvent =
  | { type: "keys"; keys: Key[] }
  /** The terminal changed size: draw the whole frame again. */
  | { type: "resize" }
  /** Something the picker waited on arrived ({@linkcode Screen.wake}). */
  | { type: "wake" }
  | { type: "end" };

/** The open screen. */
export interface Screen {
  size(): { columns: number; lines: number };
  /** Show `lines`, top to bottom, writing only those that changed since the last frame. */
  draw(lines: readonly string[]): void;
  /** The next keys, resize or wake. */
  next(): Promise<ScreenEvent>;
  /** Make a waiting {@linkcode next} return `wake` (new search results, a preview loaded). */
  wake(): void;
}

/** The terminal refused raw mode: the picker cannot run there (the caller offers the menu). */
export class ScreenUnavailable extends Error {}

/** How long a lone ESC waits for the rest of a sequence before it is the Escape key. */
export const ESCAPE_WAIT_MS = 40;

/** Alternate screen, cursor hidden, bracketed paste on (so a pasted line break is no Enter). */
const ENTER = "\x1b[?1049h\x1b[?25l\x1b[?2004h\x1b[H\x1b[2J";
const LEAVE = "\x1b[0m\x1b[?2004l\x1b[?25h\x1b[?1049l";

/**
 * Run `body` with the screen open; the terminal is restored when it returns
 * or throws, and before the process ends on a signal (SIGTERM, SIGHUP, SIGINT).
 */
export async function withScreen<T>(
  terminal: PickerTerminal,
  body: (screen: Screen) => Promise<T>,
): Promise<T> {
  let open = true;
  const restore = () => {
    if (!open) return;
    open = false;
    try {
      terminal.write(LEAVE);
    } finally {
      terminal.setRaw(false);
    }
  };
  try {
    terminal.setRaw(true);
  } catch (error) {
    throw new ScreenUnavailable(error instanceof Error ? error.message : String(error));
  }
  const stopEnding = terminal.onEnding((code) => {
    restore();
    terminal.exit(code);
  });
  // A Deno.exit elsewhere (an error path) still finds the terminal as it was.
  const onUnload = () => restore();
  globalThis.addEventListener("unload", onUnload);
  let stopResize = () => {};
  try {
    terminal.write(ENTER);
    const screen = createScreen(terminal);
    stopResize = terminal.onResize(() => screen.resized());
    return await body(screen);
  } finally {
    stopResize();
    stopEnding();
    globalThis.removeEventListener("unload", onUnload);
    restore();
  }
}

function createScreen(terminal: PickerTerminal): Screen & { resized(): void } {
  const decoder = createKeyDecoder();
  const buffer = new Uint8Array(4096);
  let reading: Promise<number | null> | undefined;
  let shown: string[] = [];
  let notify: (() => void) | undefined;
  let resized = false;
  let woken = false;
  const signal = () => notify?.();
  return {
    size: () => terminal.size(),
    resized() {
      resized = true;
      signal();
    },
    wake() {
      woken = true;
      signal();
    },
    draw(lines) {
      let text = "";
      lines.forEach((line, row) => {
        if (shown[row] !== line) text += `\x1b[${row + 1};1H${line}\x1b[0m\x1b[K`;
      });
      if (text !== "") terminal.write(text);
      shown = [...lines];
    },
    async next() {
      while (true) {
        if (resized) {
          resized = false;
          shown = [];
          terminal.write("\x1b[H\x1b[2J");
          return { type: "resize" };
        }
        if (woken) {
          woken = false;
          return { type: "wake" };
        }
        // One read at a time, kept across waits: never two, never one more than needed.
        reading ??= terminal.read(buffer);
        const waits: Promise<"read" | "event" | "timeout">[] = [
          reading.then(() => "read" as const),
          new Promise((resolve) => notify = () => resolve("event")),
        ];
        let timer: ReturnType<typeof setTimeout> | undefined;
        if (decoder.pending()) {
          waits.push(
            new Promise((resolve) => timer = setTimeout(() => resolve("timeout"), ESCAPE_WAIT_MS)),
          );
        }
        const outcome = await Promise.race(waits);
        clearTimeout(timer);
        notify = undefined;
        if (outcome === "timeout") {
          const keys = decoder.flush();
          if (keys.length > 0) return { type: "keys", keys };
          continue;
        }
        if (outcome === "event") continue;
        const count = await reading;
        reading = undefined;
        if (count === null || count === 0) return { type: "end" };
        const keys = decoder.feed(buffer.slice(0, count));
        if (keys.length > 0) return { type: "keys", keys };
      }
    },
  };
}
