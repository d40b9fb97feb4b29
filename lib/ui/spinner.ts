/**
 * A one-line spinner while background work runs (spec 11.15 step 7:
 * `Saving snapshot... - \ | /`, then `Done.`). Off a terminal it prints the
 * label and the result only, so logs stay clean.
 *
 * @module
 */

import type { Output } from "./output.ts";

const FRAMES = ["-", "\\", "|", "/"];
const FRAME_MS = 120;

/** Show `label` with a spinner until `work` settles; then `Done.` or what `describe` says. */
export async function withSpinner<T>(
  out: Output,
  work: Promise<T>,
  { label, describe = () => "Done." }: { label: string; describe?: (result: T) => string },
): Promise<T> {
  out.redraw(`  ${label} `);
  let frame = 0;
  const timer = out.terminal
    ? setInterval(() => out.redraw(`${frame === 0 ? "" : "\b"}${FRAMES[frame++ % 4]}`), FRAME_MS)
    : undefined;
  try {
    const result = await work;
    finish(out, frame, describe(result));
    return result;
  } catch (error) {
    finish(out, frame, "failed.");
    throw error;
  } finally {
    clearInterval(timer);
  }
}

function finish(out: Output, frame: number, text: string): void {
  out.redraw(`${frame > 0 ? "\b" : ""}${text}\n`);
}
