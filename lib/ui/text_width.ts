/**
 * How many terminal columns text takes, for tables that must line up with
 * names in any script: East Asian Wide and Fullwidth characters and emoji
 * take two columns, combining marks and other zero-width characters none,
 * everything else one. Measured per grapheme cluster, so an emoji sequence
 * (a ZWJ family, a flag, a keycap) counts once.
 *
 * @module
 */

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Shown as an emoji (two columns) by default, or forced to by VS16. */
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Regional_Indicator}/u;
/** Marks, format characters (ZWJ, bidi) and controls take no column of their own. */
const ZERO_WIDTH = /^[\p{M}\p{Cf}\p{Cc}]/u;

/** East Asian Wide (W) and Fullwidth (F) ranges, from Unicode's EastAsianWidth.txt. */
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], // Hangul Jamo initial consonants
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x2e80, 0x303e], // CJK radicals, Kangxi, ideographic description, CJK symbols
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff], // Tangut
  [0x1b000, 0x1b2ff], // Kana supplement and extensions, Nushu
  [0x1f200, 0x1f2ff], // enclosed ideographic supplement
  [0x20000, 0x2fffd], // CJK extensions B-F
  [0x30000, 0x3fffd], // CJK extensions G-H
];

/** The terminal columns `text` takes. */
export function displayWidth(text: string): number {
  // Printable ASCII, the usual name, one column a character.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += clusterWidth(segment);
  return width;
}

/** `text` padded with spaces at the end to `width` columns (as String.padEnd, by columns). */
export function padEndToWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * `text` cut to at most `width` columns, ending in `…` when cut; whole when
 * it fits. Cut between grapheme clusters, so no emoji or accent is split.
 */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = "";
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const next = clusterWidth(segment);
    if (used + next > width - 1) break;
    kept += segment;
    used += next;
  }
  return `${kept}…`;
}

function clusterWidth(cluster: string): number {
  if (EMOJI.test(cluster)) return 2;
  if (ZERO_WIDTH.test(cluster)) return 0;
  const code = cluster.codePointAt(0)!;
  return isWide(code) ? 2 : 1;
}

function isWide(code: number): boolean {
  if (code < 0x1100) return false;
  for (const [low, high] of WIDE_RANGES) {
    if (code < low) return false;
    if (code <= high) return true;
  }
  return false;
}
