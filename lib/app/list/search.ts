/**
 * Search mode (spec 11.1.1): the main sessions whose name contains the term,
 * case-insensitively (the folder is deliberately not searched), numbered
 * from 1 in the filtered list. A number resumes that session through the one
 * pick path (spec 11.9). No footer and no new-project offer: an entry that
 * is not a number here is a mistyped number.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { prepareLaunch } from "../launch/launch_setup.ts";
import { resumePicked } from "../resume/resume_picked.ts";
import { describeSessions, type ListedSession } from "./list.ts";
import { showList } from "./show_list.ts";
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

/** A match as `search --json` prints it. */
export interface SearchHit extends ListedSession {
  /** The session's number in the full list (`claudecm resume N`). */
  listNumber: number;
}

/** Search the main list by name; returns the exit code. */
export async function runSearch(ctx: AppContext, options: SearchOptions): Promise<number> {
  const term = options.term ?? "";
  if (term.trim() === "") {
    // A script gets one line it can show (and the usage-error object), not the usage text.
    if (options.json) throw new UsageError("search needs a TERM: claudecm search --json TERM");
    ctx.err.line("  Usage: claudecm search TERM   (old form: claudecm -s TERM)");
    ctx.err.line("  Lists the sessions whose name contains TERM, ignoring case.");
    return ExitCode.usage;
  }
  if (options.json) {
    const { hits, total } = findMatches(ctx, term);
    const sessions = describeSessions(ctx, hits.map((hit) => hit.session), { archived: false })
      .map((listed, index): SearchHit => ({ ...listed, listNumber: hits[index].listNumber }));
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
  while (true) {
    showList(ctx, sessions, { title: `Sessions matching '${term}'` });
    ctx.out.line();
    ctx.out.line(`  ${hits.length} of ${total} sessions matching '${term}'`);
    if (setup === null) return ExitCode.ok;
    ctx.out.line();
    const answer = (ctx.prompter.ask("  Pick a session (Enter to quit): ") ?? "").trim();
    if (answer === "" || /^q$/i.test(answer)) return ExitCode.ok;
    const number = parseWholeNumber(answer);
    const session = number === null ? undefined : sessions[number - 1];
    if (session !== undefined) {
      return await resumePicked(ctx, { settings: setup.settings, session });
    }
    ctx.out.line(`  Type a number from 1 to ${sessions.length}, or Enter to quit.`, "yellow");
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
