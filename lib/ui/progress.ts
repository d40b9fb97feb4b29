/**
 * A one-line progress bar for long work measured in bytes (a first index
 * build). Drawn in place on a terminal, at most ten times a second, and only
 * once the work has run for a moment; off a terminal it prints nothing.
 *
 * @module
 */

import type { Output } from "./output.ts";

/** A progress bar: feed it progress, then end it. */
export interface Progress {
  update(done: number, total: number): void;
  /** Clear the bar. */
  done(): void;
}

const WIDTH = 30;
const REDRAW_MS = 100;
const SHOW_AFTER_MS = 300;
const MB = 1024 * 1024;

/** A bar labelled `label` on `out`. */
export function createProgress(out: Output, label: string): Progress {
  if (!out.terminal) return { update() {}, done() {} };
  const started = Date.now();
  let drawn = false;
  let last = 0;
  return {
    update(done, total) {
      const now = Date.now();
      if (now - started < SHOW_AFTER_MS || (now - last < REDRAW_MS && done < total)) return;
      last = now;
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(share * WIDTH);
      out.redraw(
        `\r  ${label} [${"#".repeat(filled)}${" ".repeat(WIDTH - filled)}] ` +
          `${Math.round(share * 100)}% ${(done / MB).toFixed(0)}/${(total / MB).toFixed(0)} MB`,
      );
      drawn = true;
    },
    done() {
      if (drawn) out.redraw(`\r${" ".repeat(label.length + WIDTH + 30)}\r`);
    },
  };
}
