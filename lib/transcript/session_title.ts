/**
 * A session's title from what its transcript says, kept apart from the
 * reading (session_facts.ts) so that showing a title loads no reader.
 *
 * @module
 */

import { cleanName } from "../core/safe_text.ts";
import type { SessionFacts } from "./search_text.ts";

const TITLE_LIMIT = 100;

/**
 * A session's title: the user's, else Claude's, else its first prompt; one
 * line with no `|`, so it can be a registry DESC as is. claudecm launches
 * claude with `-n "<machine> - <name>"`, which claude keeps as the custom
 * title: with `machine` given, that prefix (however often repeated) is
 * claudecm's own, not part of the title (issue 31 defect 6).
 */
export function titleOf(
  facts: SessionFacts,
  options: { machine?: string | readonly string[] } = {},
): string | undefined {
  for (const candidate of [facts.customTitle, facts.aiTitle, facts.firstPrompt]) {
    // Stored as a registry name: no `|`, no line break, no escape sequence (DESIGN.md 5.17).
    const clean = candidate === undefined ? undefined : cleanName(candidate.replaceAll("|", " "));
    const line = clean === undefined ? undefined : withoutOwnPrefix(clean, options.machine);
    if (line === undefined || line === "") continue;
    return line.length > TITLE_LIMIT ? `${line.slice(0, TITLE_LIMIT - 1)}…` : line;
  }
  return undefined;
}

/**
 * `title` without claudecm's `<machine> - ` launch-name prefix, every repeat
 * of it; `machine` may list each name this machine's launches used.
 */
export function withoutOwnPrefix(
  title: string,
  machine: string | readonly string[] | undefined,
): string {
  const prefixes = (typeof machine === "string" ? [machine] : machine ?? [])
    .map(cleanName).filter((name) => name !== "").map((name) => `${name} - `);
  let rest = title;
  for (;;) {
    const prefix = prefixes.find((p) => rest.startsWith(p));
    if (prefix === undefined) break;
    rest = rest.slice(prefix.length).trimStart();
  }
  // Cleaned names are trimmed: `-n "desk - "` is kept as `desk -`.
  return prefixes.some((prefix) => rest === prefix.trimEnd()) ? "" : rest;
}
