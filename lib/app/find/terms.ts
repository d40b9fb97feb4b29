/**
 * The user's search terms, read once and used three ways: as an FTS5 match
 * expression for the index, as a matcher for the scan that needs no index,
 * and as a cheap pre-check on raw transcript lines. Each argument is one
 * term; a term of several words is a phrase; a trailing `*` makes its last
 * word a prefix. Every term must match. The index gets each term as typed
 * and splits and folds it with its own tokenizer, as it did the text (a
 * word folded here first would not be the index's word in every script:
 * FTS5 folds accents of Latin letters only, and keeps Hangul syllables
 * whole). The scan splits and folds text and terms alike here: letters and
 * digits, case and accents folded.
 *
 * @module
 */

import { UsageError } from "../../core/errors.ts";
import { type ByteSearch, byteSearch } from "../../transcript/raw_match.ts";
import { indexableText } from "../../core/index_words.ts";

/** One term: a word, or a phrase of words, the last one maybe a prefix. */
export interface Term {
  /** The term as typed, without its quotes and prefix `*`: what the index's tokenizer reads. */
  text: string;
  /** Its words as the scan compares them: lower case, accents folded. */
  words: string[];
  prefix: boolean;
}

/** Read the terms from the command line's words. */
export function parseTerms(args: readonly string[]): Term[] {
  const terms: Term[] = [];
  for (const arg of args) {
    const trimmed = arg.trim().replace(/^"(.*)"$/s, "$1");
    const words = tokenize(trimmed);
    const prefix = /\*\s*$/.test(trimmed);
    const text = prefix ? trimmed.replace(/\*\s*$/, "") : trimmed;
    if (words.length > 0) terms.push({ text, words, prefix });
  }
  if (terms.length === 0) {
    throw new UsageError("nothing to search for: give at least one word (letters or digits)");
  }
  return terms;
}

/**
 * The FTS5 expression: every term as typed, each a quoted phrase (so no
 * input is FTS syntax; a `"` in it is doubled), for the index's tokenizer,
 * split where the indexed text was (core/index_words.ts).
 */
export function ftsMatch(terms: readonly Term[]): string {
  return terms.map((term) =>
    `"${indexableText(term.text).replaceAll('"', '""')}"${term.prefix ? "*" : ""}`
  ).join(" AND ");
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
 * The raw-byte pre-check for a scan: a search for the longest word typed in
 * plain ASCII letters and digits. Undefined when no word can be checked that
 * way: a word typed with accents matches text with or without them, so its
 * folded form in raw bytes cannot rule a line out. (A word typed without
 * accents is looked for as typed: without the index, it does not find the
 * same word written with accents; README says so.)
 */
export function rawPrecheck(terms: readonly Term[]): ByteSearch | undefined {
  const typed = terms.flatMap((term) => term.text.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  const ascii = typed.filter((word) => /^[a-z0-9]+$/.test(word));
  const longest = ascii.sort((a, b) => b.length - a.length)[0];
  return longest === undefined ? undefined : byteSearch(longest);
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
