/**
 * Lines of `sessions.txt` that do not parse are kept as they are (DESIGN.md
 * 5.10), and `list` says so once, on stderr, so they are not forgotten;
 * `claudecm doctor` shows each of them.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { malformedLines, type Registry } from "../../core/registry.ts";

/** Line numbers named in the warning; more are counted, not listed. */
const LISTED = 10;

/** Warn on stderr about the registry lines that did not parse, if any. */
export function warnMalformedLines(ctx: AppContext, registry: Registry): void {
  const numbers = malformedLines(registry).map((line) => line.lineNumber);
  if (numbers.length === 0) return;
  const listed = numbers.slice(0, LISTED).join(", ") +
    (numbers.length > LISTED ? `, and ${numbers.length - LISTED} more` : "");
  const lines = numbers.length === 1 ? "1 line" : `${numbers.length} lines`;
  ctx.err.line(
    `  sessions.txt has ${lines} claudecm cannot read (line${numbers.length === 1 ? "" : "s"} ` +
      `${listed}); ${numbers.length === 1 ? "it is" : "they are"} kept as written. ` +
      "claudecm doctor shows them.",
    "yellow",
  );
}
