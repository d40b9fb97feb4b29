/**
 * Which lines of a transcript name a file inside given folders: claude
 * writes absolute paths into a session's lines (a large tool output saved
 * under `<id>/tool-results/`, a subagent's transcript), and a folder that
 * moves leaves those paths naming where its files were.
 *
 * @module
 */

import { scanLines } from "./lines.ts";

const encoder = new TextEncoder();

/**
 * How many lines of the transcript at `path` name a path inside one of
 * `folders` (each given with its trailing separator), as a JSON string
 * spells it (a Windows path's backslashes doubled).
 */
export function linesNaming(path: string, folders: string[]): number {
  const needles = folders.map((folder) => latin1(JSON.stringify(folder).slice(1, -1)));
  if (needles.length === 0) return 0;
  let count = 0;
  scanLines(path, (line) => {
    if (needles.some((needle) => line.latin1.includes(needle))) count++;
  });
  return count;
}

/** `text`'s UTF-8 bytes as a latin1 string, as scanLines gives each line. */
function latin1(text: string): string {
  let out = "";
  for (const byte of encoder.encode(text)) out += String.fromCharCode(byte);
  return out;
}
