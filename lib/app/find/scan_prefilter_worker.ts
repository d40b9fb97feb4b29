/**
 * The worker's side of a scan's first step (scan_prefilter.ts): it takes
 * paths from the shared counter, as the main thread does, and answers which
 * of those it searched hold the word. In: `{ word, paths, next }` (`next`
 * the counter's SharedArrayBuffer); out: `{ paths }`, or `{ failed: message }`.
 *
 * @module
 */

import { claimAndSearch, latin1For } from "./scan_prefilter.ts";
import { byteSearch } from "../../transcript/raw_match.ts";

/** The worker's side of its port (the global scope of a worker). */
interface Port {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

const port = globalThis as unknown as Port;

port.onmessage = async (event) => {
  const { word, paths, next } = event.data as {
    word: string;
    paths: string[];
    next: SharedArrayBuffer;
  };
  try {
    const search = byteSearch(word);
    const held = claimAndSearch(paths, new Int32Array(next), search, await latin1For(search));
    port.postMessage({ paths: held });
  } catch (error) {
    port.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
};
