/**
 * The user's search terms, read once and used three ways: as an FTS5 match
 * expression for the index, as a matcher for the scan that needs no index,
 * and as a cheap pre-check on raw transcript lines. Each argument is one
 * term; a term of several words is a phrase; a trailing `*` makes its last
 * word a prefix. Every term must match. Words are compared as the index's
 * tokenizer sees them: letters and digits, case and accents folded.
 *
 * @module
 */

import { UsageError } from "../../core/errors.ts";
import { type ByteSearch, byteSearch } from "../../transcript/raw_match.ts";

/** One term: a word, or a phrase of words, the last one maybe a prefix. */
export interface Term {
  words: string[];
  prefix: boolean;
}

/** Read the terms from the command line's words. */
export function parseTerms(args: readonly string[]): Term[] {
  const terms: Term[] = [];
  for (const arg of args) {
    const trimmed = arg.trim().replace(/^"(.*)"$/s, "$1");
    const words = tokenize(trimmed);
    if (words.length > 0) terms.push({ words, prefix: /\*\s*$/.test(trimmed) });
  }
  if (terms.length === 0) {
    throw new UsageError("nothing to search for: give at least one word (letters or digits)");
  }
  return terms;
}

/** The FTS5 expression: every term, each a quoted phrase (so no input is FTS syntax). */
export function ftsMatch(terms: readonly Term[]): string {
  return terms.map((term) => `"${term.words.join(" ")}"${term.prefix ? "*" : ""}`).join(" AND ");
}

/** Lower-case, accent-free words of `text`, split where the index's tokenizer splits. */
export function tokenize(text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "");
}

/** Whether `text` holds every term. */
export function matchesAll(terms: readonly Term[], text: string): boolean {
  const spaced = ` ${tokenize(text).join(" ")} `;
  return terms.every((term) =>
    spaced.includes(` ${term.words.join(" ")}${term.prefix ? "" : " "}`)
  );
}

/**
 * The raw-byte pre-check for a scan: a search for the terms' longest word,
 * when it is plain ASCII letters and digits. Undefined when no word can be
 * checked that way (a word with accents matches accent-free text through the
 * tokenizer, so raw bytes cannot rule it out).
 */
export function rawPrecheck(terms: readonly Term[]): ByteSearch | undefined {
  const longest = terms.flatMap((term) => term.words).sort((a, b) => b.length - a.length)[0];
  if (longest === undefined || !/^[a-z0-9]+$/.test(longest)) return undefined;
  return byteSearch(longest);
}

/** The ranges of `text` to highlight: each occurrence of each term's words. */
export function highlightPattern(terms: readonly Term[]): RegExp {
  const words = [...new Set(terms.flatMap((term) => term.words))].sort((a, b) =>
    b.length - a.length
  );
  return new RegExp(words.map(escapeRegExp).join("|"), "giu");
}

function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
