/**
 * Snippets: a short window of matched text with the hits marked. The marks
 * are control characters that never occur in a snippet otherwise; the view
 * makes them highlighted pieces of the line, which the output colours on a
 * terminal only.
 *
 * @module
 */

import type { Segment } from "../../ui/output.ts";

/** Opens a highlighted hit. */
export const MARK_OPEN = "\u0001";
/** Closes a highlighted hit. */
export const MARK_CLOSE = "\u0002";

const CONTEXT_CHARS = 90;

/** A window of `text` around the first hit of `pattern`, every hit in it marked. */
export function snippetAround(text: string, pattern: RegExp): string {
  // Only the neighbourhood of the first hit is flattened: a tool output may be megabytes.
  pattern.lastIndex = 0;
  const raw = pattern.exec(text)?.index ?? 0;
  const nearFrom = Math.max(0, raw - 4 * CONTEXT_CHARS);
  const nearTo = Math.min(text.length, raw + 4 * CONTEXT_CHARS);
  const near = text.slice(nearFrom, nearTo);
  const flat = near.replace(/\s+/g, " ").trim();
  pattern.lastIndex = 0;
  const first = pattern.exec(flat);
  const at = first?.index ?? 0;
  const from = Math.max(0, at - CONTEXT_CHARS);
  const to = Math.min(flat.length, at + (first?.[0].length ?? 0) + CONTEXT_CHARS);
  const window = flat.slice(from, to);
  pattern.lastIndex = 0;
  const marked = window.replace(pattern, (hit) => hit === "" ? hit : MARK_OPEN + hit + MARK_CLOSE);
  const before = from > 0 || text.slice(0, nearFrom).trim() !== "";
  const after = to < flat.length || text.slice(nearTo).trim() !== "";
  return (before ? "…" : "") + marked + (after ? "…" : "");
}

/** A snippet for display, on one line: plain pieces, and each hit a highlighted piece. */
export function snippetSegments(snippet: string): Segment[] {
  const flat = snippet.replace(/\s+/g, " ").trim();
  return flat.split(MARK_OPEN).flatMap((part, i) => {
    if (i === 0) return part === "" ? [] : [part];
    const [hit, ...rest] = part.split(MARK_CLOSE);
    const after = rest.join("");
    return [{ text: hit, colour: "highlight" as const }, ...(after === "" ? [] : [after])];
  });
}
