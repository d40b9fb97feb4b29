/**
 * The session an older top-level `agent-*.jsonl` belongs to, which only its
 * lines say. Apart from the listing (all_transcripts.ts), which reads no
 * file, so that listing loads no reader.
 *
 * @module
 */

import { isSessionId } from "../core/registry.ts";
import { scanLines } from "./lines.ts";
import { peekString } from "./scan.ts";

/** The session a transcript's lines name (the first `sessionId` in its first 64 KB). */
export function headSessionId(path: string): string | undefined {
  let found: string | undefined;
  let read = 0;
  try {
    scanLines(path, (line) => {
      read += line.length + 1;
      const id = line.oversized ? undefined : peekString(line.bytes, "sessionId");
      if (id !== undefined && isSessionId(id)) found = id;
      return found === undefined && read < 64 * 1024;
    });
  } catch {
    return undefined; // Unreadable: the caller leaves the file out.
  }
  return found;
}
