/**
 * Ctrl-C noted rather than fatal while an operation runs that must clean up
 * after itself when cancelled (a refresh's `claude -p` session, which would
 * otherwise stay behind as an orphan). The operation checks the latch
 * between its steps and ends as cancelled (DESIGN.md 5.14) at the next one.
 *
 * @module
 */

import { InterruptedError } from "../core/errors.ts";
import { endingSignal, holdEndingSignals } from "./ending_signal.ts";

/** A Ctrl-C seen since the latch was set. */
export interface InterruptLatch {
  /** Throw InterruptedError when Ctrl-C was pressed. */
  check(): void;
  /** Stop noting Ctrl-C: it ends claudecm again. */
  release(): void;
}

/** Note Ctrl-C until released. */
export function latchInterrupts(): InterruptLatch {
  let pressed = false;
  let released = false;
  const note = () => {
    pressed = true;
  };
  Deno.addSignalListener("SIGINT", note);
  // A closed terminal or a SIGTERM cancels the operation the same way, then ends claudecm.
  const releaseEnding = holdEndingSignals();
  return {
    check() {
      if (pressed) throw new InterruptedError();
      const ending = endingSignal();
      if (ending !== null) throw new InterruptedError(ending);
    },
    release() {
      if (released) return;
      released = true;
      Deno.removeSignalListener("SIGINT", note);
      releaseEnding();
    },
  };
}
