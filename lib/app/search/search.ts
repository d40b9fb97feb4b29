/**
 * Search mode (spec 11.1.1): the main sessions whose name contains the term,
 * case-insensitively (the folder is deliberately not searched), each shown by
 * its number in the list (issue 31: a filtered view's own positions were
 * taken for list numbers, and `resume 2` opened another session). A number
 * shown resumes that session through the one pick path (spec 11.9). No footer
 * and no new-project offer: an entry that is not a number shown here is a
 * mistyped number.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { prepareLaunch } from "../launch/launch_setup.ts";
import { resumePicked } from "../resume/resume_picked.ts";
import { describeSessions, type ListedSession } from "../list/list.ts";
import { printUsage, sayNotShown, showMatches } from "./search_view.ts";
import { ExitCode, UsageError } from "../../core/errors.ts";
import { parseWholeNumber } from "../../core/numbers.ts";
import { mainSessions, type Session } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { safeJson } from "../../core/safe_text.ts";

/** Options for {@linkcode runSearch}. */
export interface SearchOptions {
  /** The text to look for; missing or blank prints the usage. */
  term?: string;
  json: boolean;
  /** Prompt even when stdin is not a terminal (the old form, scripted input). */
  interactive?: boolean;
}

/** A match as `search --json` prints it: `number` is its number in the list, as in `list --json`. */
export interface SearchHit extends ListedSession {
  /** The same as `number` (the session's number in the list), kept for scripts that read it. */
  listNumber: number;
}

/** Search the main list by name; returns the exit code. */
export async function runSearch(ctx: AppContext, options: SearchOptions): Promise<number> {
  const term = options.term ?? "";
  if (term.trim() === "") {
    // A script gets one line it can show (and the usage-error object), not the usage text.
    if (options.json) throw new UsageError("search needs a TERM: claudecm search --json TERM");
    printUsage(ctx);
    return ExitCode.usage;
  }
  if (options.json) {
    const { hits, total } = findMatches(ctx, term);
    const sessions = describeSessions(ctx, hits.map((hit) => hit.session), { archived: false })
      .map((listed, index): SearchHit => {
        const { listNumber } = hits[index];
        return { ...listed, number: listNumber, listNumber };
      });
    ctx.out.line(safeJson({ term, total, sessions }, 2));
    return ExitCode.ok;
  }
  const interactive = options.interactive || ctx.interactive;
  const setup = interactive ? await prepareLaunch(ctx, { requireClaude: false }) : null;
  if (setup !== null && "reexecExitCode" in setup) return setup.reexecExitCode;
  const { hits, total } = findMatches(ctx, term);
  if (hits.length === 0) {
    ctx.out.line(`  No sessions matching '${term}'.`);
    return ExitCode.ok;
  }
  const sessions = hits.map((hit) => hit.session);
  const numbers = hits.map((hit) => hit.listNumber);
  while (true) {
    showMatches(ctx, { term, sessions, numbers, total });
    if (setup === null) return ExitCode.ok;
    ctx.out.line();
    const answer = (ctx.prompter.ask("  Pick a session (Enter to quit): ") ?? "").trim();
    if (answer === "" || /^q$/i.test(answer)) return ExitCode.ok;
    const number = parseWholeNumber(answer);
    const hit = hits.find((hit) => hit.listNumber === number);
    if (hit !== undefined) {
      return await resumePicked(ctx, { settings: setup.settings, session: hit.session });
    }
    sayNotShown(ctx, { number, numbers });
  }
}

/** Text compared without case: lower case, with the Greek final sigma as a sigma (ΚΑΣ, κασσα). */
function caseless(text: string): string {
  return text.toLowerCase().replaceAll("ς", "σ");
}

function findMatches(
  ctx: AppContext,
  term: string,
): { hits: Array<{ session: Session; listNumber: number }>; total: number } {
  const sessions = mainSessions(readRegistry(ctx.paths));
  const needle = caseless(term);
  const hits = sessions.flatMap((session, index) =>
    caseless(session.desc).includes(needle) ? [{ session, listNumber: index + 1 }] : []
  );
  return { hits, total: sessions.length };
}
