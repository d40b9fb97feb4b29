/**
 * Where the search index splits text into words. SQLite's unicode61
 * tokenizer knows Unicode 6.1: to it a character assigned since (most emoji,
 * newer symbols) is part of a word, so `ready🧑‍💻launch` or `a🩷b` would be
 * one word in the index and two to find's scan, which splits at every
 * character that is not a letter, digit or mark (app/find/terms.ts). The
 * index would then miss what the scan finds. Such characters become spaces
 * here, in the text indexed and in the words asked for alike.
 *
 * @module
 */

/** Made on first use: a `\p{...}` regex at load costs every start its Unicode tables. */
let separators: { any: RegExp; each: RegExp } | undefined;

/** `text` with every non-ASCII character that is not a letter, digit or mark made a space. */
export function indexableText(text: string): string {
  // ASCII punctuation and spaces already split words in the tokenizer; most text is ASCII.
  // deno-lint-ignore no-control-regex -- the whole ASCII range, control characters included
  if (!/[^\x00-\x7f]/.test(text)) return text;
  separators ??= {
    // deno-lint-ignore no-control-regex -- the same range
    any: /[^\x00-\x7f\p{L}\p{N}\p{M}]/u,
    // deno-lint-ignore no-control-regex -- the same range
    each: /[^\x00-\x7f\p{L}\p{N}\p{M}]/gu,
  };
  return separators.any.test(text) ? text.replace(separators.each, " ") : text;
}
