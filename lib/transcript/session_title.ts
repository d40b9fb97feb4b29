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
 * line with no `|`, so it can be a registry DESC as is.
 */
export function titleOf(facts: SessionFacts): string | undefined {
  for (const candidate of [facts.customTitle, facts.aiTitle, facts.firstPrompt]) {
    // Stored as a registry name: no `|`, no line break, no escape sequence (DESIGN.md 5.17).
    const line = candidate === undefined ? undefined : cleanName(candidate.replaceAll("|", " "));
    if (line === undefined || line === "") continue;
    return line.length > TITLE_LIMIT ? `${line.slice(0, TITLE_LIMIT - 1)}…` : line;
  }
  return undefined;
}
