/**
 * The real terminal of the picker: this process's stdin and stdout. Raw
 * mode through `Deno.stdin.setRaw` (on Windows it also turns on VT input, so
 * the console sends the same sequences as other terminals); resizes from
 * SIGWINCH, or on Windows, which has no such signal, from a look at the size
 * four times a second while the picker is open.
 *
 * @module
 */

import type { OsName } from "../../core/paths.ts";
import type { PickerTerminal } from "./screen.ts";

const ENDING: ReadonlyArray<readonly [Deno.Signal, number]> = [
  ["SIGTERM", 143],
  ["SIGHUP", 129],
  ["SIGINT", 130],
];

/** stdin and stdout as the picker's terminal. */
export function processTerminal(options: { os: OsName }): PickerTerminal {
  const encoder = new TextEncoder();
  const windows = options.os === "windows";
  return {
    setRaw: (raw) => Deno.stdin.setRaw(raw),
    write(text) {
      const bytes = encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
    },
    read: (buffer) => Deno.stdin.read(buffer),
    size() {
      try {
        const { columns, rows } = Deno.consoleSize();
        return { columns: columns || 80, lines: rows || 24 };
      } catch {
        return { columns: 80, lines: 24 };
      }
    },
    onResize(listener) {
      if (windows) {
        let last = JSON.stringify(this.size());
        const timer = setInterval(() => {
          const now = JSON.stringify(this.size());
          if (now !== last) listener();
          last = now;
        }, 250);
        return () => clearInterval(timer);
      }
      Deno.addSignalListener("SIGWINCH", listener);
      return () => Deno.removeSignalListener("SIGWINCH", listener);
    },
    onEnding(listener) {
      if (windows) return () => {};
      const handlers = ENDING.map(([signal, code]) => [signal, () => listener(code)] as const);
      for (const [signal, handler] of handlers) Deno.addSignalListener(signal, handler);
      return () => {
        for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
      };
    },
    exit: (code) => Deno.exit(code),
  };
}
