/**
 * Text as the picker's screen shows it: made safe (DESIGN.md 5.17), and
 * measured, cut and wrapped by terminal columns, with the measures
 * remembered (a name beyond ASCII is measured grapheme by grapheme, and the
 * same rows are drawn again at every key).
 *
 * @module
 */

import { displayWidth, truncateToWidth } from "../text_width.ts";
import { visibleText } from "../../core/safe_text.ts";

/**
 * Text for one screen line: line breaks and tabs as spaces, every other
 * control character shown visibly (`^[`), so no escape from data acts.
 */
export function screenText(text: string): string {
  return visibleText(text.replace(/[\r\n\t]+/g, " "), "");
}

/** `text` in pieces of at most `width` columns (a character wider than that alone). */
export function wrapToWidth(text: string, width: number): string[] {
  if (widthOf(text) <= width) return [text];
  const parts: string[] = [];
  let part = "";
  let used = 0;
  for (const character of text) {
    const next = widthOf(character);
    if (used + next > width && part !== "") {
      parts.push(part);
      part = "";
      used = 0;
    }
    part += character;
    used += next;
  }
  return part === "" ? parts : [...parts, part];
}

/** `text` cut at its start to `width` columns, beginning with `…` when cut. */
export function truncateStart(text: string, width: number): string {
  if (widthOf(text) <= width) return text;
  if (width <= 0) return "";
  const characters = [...text];
  let kept = "";
  let used = 1;
  for (let i = characters.length - 1; i >= 0; i--) {
    const next = widthOf(characters[i]);
    if (used + next > width) break;
    kept = characters[i] + kept;
    used += next;
  }
  return `…${kept}`;
}

/**
 * Widths and cuts, remembered: a name beyond ASCII is measured grapheme by
 * grapheme (ICU's segmenter), and the same rows are drawn again at every key.
 * Cleared when large, so a long session stays small.
 */
const widths = new Map<string, number>();
const cuts = new Map<string, string>();
const REMEMBERED = 20_000;

/** The columns `text` takes. */
export function widthOf(text: string): number {
  let width = widths.get(text);
  if (width === undefined) {
    if (widths.size >= REMEMBERED) widths.clear();
    width = displayWidth(text);
    widths.set(text, width);
  }
  return width;
}

/** `text` cut to `width` columns, ending in `…` when cut. */
export function cutTo(text: string, width: number): string {
  if (widthOf(text) <= width) return text;
  const key = `${width}\u0000${text}`;
  let cut = cuts.get(key);
  if (cut === undefined) {
    if (cuts.size >= REMEMBERED) cuts.clear();
    cut = truncateToWidth(text, width);
    cuts.set(key, cut);
  }
  return cut;
}

/** `text` padded with spaces to `width` columns. */
export function padTo(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - widthOf(text)));
}
