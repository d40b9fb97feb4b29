/**
 * A closed terminal (SIGHUP) or a kill asking claudecm to stop (SIGTERM)
 * while it waits on work that must finish to leave things right: a claude
 * session whose row written ahead goes again when claude saved nothing, a
 * `claude -p` run whose transcript goes when it is not kept. For that time
 * such a signal is noted rather than fatal; from then on nothing is asked
 * (a question is answered as at the end of input), output nobody may see
 * any more is not missed, and claudecm ends with the signal's exit code once
 * the work is done. POSIX only: Windows has no such signals to listen for.
 *
 * @module
 */

/** The signals that end claudecm once its work is left right. */
export type EndingSignal = "SIGHUP" | "SIGTERM";

const ENDING_SIGNALS: readonly EndingSignal[] = ["SIGHUP", "SIGTERM"];

let noted: EndingSignal | null = null;
let holders = 0;
const listeners = new Set<(signal: EndingSignal) => void>();
const handlers = new Map(ENDING_SIGNALS.map((signal) => [signal, () => note(signal)]));

function note(signal: EndingSignal): void {
  noted ??= signal;
  for (const listener of listeners) listener(signal);
}

/** The ending signal this run received while one was held; null when none. */
export function endingSignal(): EndingSignal | null {
  return noted;
}

/** The exit code a shell reports for a process `signal` ended: 128 + its number. */
export function endingExitCode(signal: EndingSignal): number {
  return signal === "SIGHUP" ? 129 : 143;
}

/**
 * Note SIGHUP and SIGTERM instead of dying of them until the returned
 * function is called; `onSignal` hears each one (to pass it on to a child).
 * Counted, so two holders do not release each other.
 */
export function holdEndingSignals(onSignal?: (signal: EndingSignal) => void): () => void {
  // Asked here, not from os.ts: this module imports nothing, so the runner loads it alone.
  if (Deno.build.os === "windows") return () => {};
  if (onSignal !== undefined) listeners.add(onSignal);
  if (holders++ === 0) {
    for (const [signal, handler] of handlers) Deno.addSignalListener(signal, handler);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (onSignal !== undefined) listeners.delete(onSignal);
    if (--holders === 0) {
      for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
    }
  };
}
