/**
 * Words as the search index should see them: as find's scan reads them
 * (app/find/terms.ts), so the index and `--no-index` agree. SQLite's
 * unicode61 tokenizer knows Unicode 6.1: to it a character assigned since
 * (most emoji, newer symbols) is part of a word, so `ready🧑‍💻launch` or
 * `a🩷b` would be one word in the index and two to the scan, which splits at
 * every character that is not a letter or digit; and it splits at marks
 * (a variation selector, a vowel sign) that the scan drops after NFD. Here,
 * in the text indexed and in the words asked for alike, marks go and every
 * other non-ASCII character that is not a letter or digit becomes a space.
 *
 * @module
 */

/** Made on first use: a `\p{...}` regex at load costs every start its Unicode tables. */
let rules: { marks: RegExp; separators: RegExp } | undefined;

/** `text` with the scan's word boundaries and without marks (see the module doc). */
export function indexableText(text: string): string {
  // ASCII punctuation and spaces already split words in the tokenizer; most text is ASCII.
  // deno-lint-ignore no-control-regex -- the whole ASCII range, control characters included
  if (!/[^\x00-\x7f]/.test(text)) return text;
  rules ??= {
    marks: /\p{M}+/gu,
    // deno-lint-ignore no-control-regex -- the same range
    separators: /[^\x00-\x7f\p{L}\p{N}]/gu,
  };
  return text.normalize("NFD").replace(rules.marks, "").replace(rules.separators, " ");
}
