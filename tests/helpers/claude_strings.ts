/**
 * Reading the real claude's bundle for what cannot be produced offline (a
 * record only a model's tool call or a background hand-off writes, the
 * environment variables it reads). The native executable embeds its
 * JavaScript as plain text; it is read in chunks (about 400 MB in 2.1.332),
 * overlapping so a match that straddles two chunks is still seen.
 *
 * @module
 */

import { REAL_CLAUDE } from "./real_claude.ts";
import { pathFromUrl } from "./portable.ts";

const CHUNK = 32 * 1024 * 1024;
/** Longer than any pattern's match, so none is cut by a chunk's end. */
const OVERLAP = 64 * 1024;

/**
 * Every distinct match of each global `pattern` in the real claude's
 * executable (read as latin1, one character per byte), in the order found.
 */
export function bundleMatches(patterns: readonly RegExp[]): string[][] {
  const found = patterns.map(() => new Set<string>());
  const file = Deno.openSync(Deno.realPathSync(REAL_CLAUDE!), { read: true });
  const decoder = new TextDecoder("latin1");
  try {
    const buffer = new Uint8Array(CHUNK + OVERLAP);
    let carried = 0;
    while (true) {
      const read = file.readSync(buffer.subarray(carried));
      if (read === null || read === 0) break;
      const text = decoder.decode(buffer.subarray(0, carried + read));
      patterns.forEach((pattern, i) => {
        for (const match of text.matchAll(pattern)) found[i].add(match[0]);
      });
      const total = carried + read;
      carried = Math.min(OVERLAP, total);
      buffer.copyWithin(0, total - carried, total);
    }
  } finally {
    file.close();
  }
  return found.map((set) => [...set]);
}

/** The CLAUDE_* names claude 2.1.332 reads, as fixtures/claude-env-2.1.332.txt pins them. */
export function pinnedClaudeVariables(): string[] {
  const file = pathFromUrl("../../fixtures/claude-env-2.1.332.txt", import.meta.url);
  return Deno.readTextFileSync(file).split("\n").filter((line) => /^CLAUDE_/.test(line));
}
