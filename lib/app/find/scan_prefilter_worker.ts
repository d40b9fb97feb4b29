/**
 * The worker's half of a scan's first step (scan_prefilter.ts): which of
 * the paths it is given hold the word. In: `{ word, paths }`; out:
 * `{ paths }` (those that hold it), or `{ failed: message }`.
 *
 * @module
 */

import { filesHolding } from "./scan_prefilter.ts";
import { byteSearch } from "../../transcript/raw_match.ts";

/** The worker's side of its port (the global scope of a worker). */
interface Port {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

const port = globalThis as unknown as Port;

port.onmessage = async (event) => {
  const { word, paths } = event.data as { word: string; paths: string[] };
  try {
    // Sizes are not needed here: the worker searches every file it was given itself.
    const files = paths.map((path) => ({
      path,
      size: 0,
      sessionId: undefined,
      projectDir: "",
      subagent: false,
      mtimeMs: 0,
      identity: "",
    }));
    const held = await filesHolding(files, byteSearch(word), { workerBytes: Infinity });
    port.postMessage({ paths: held.map((file) => file.path) });
  } catch (error) {
    port.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
};
