/**
 * Asking for a session name. The registry cannot hold `|` or a line break,
 * so such a name is refused with the reason and asked again.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { InvalidSessionNameError, validateSessionName } from "../../core/registry.ts";
import { cleanName } from "../../core/safe_text.ts";

/** A valid typed name (trimmed), or null for Enter or no answer at all. */
export function askSessionName(ctx: AppContext, question: string): string | null {
  const answer = askSessionNameOrEnd(ctx, question);
  return answer === "ended" ? null : answer;
}

/**
 * A valid typed name (trimmed), null for Enter, or "ended" when input ended
 * with no answer (for a question whose default starts something).
 */
export function askSessionNameOrEnd(ctx: AppContext, question: string): string | null | "ended" {
  while (true) {
    const typed = ctx.prompter.ask(question);
    if (typed === null) return "ended";
    // A pasted or piped name may carry escape sequences; the registry keeps none.
    const answer = cleanName(typed);
    if (answer === "") return null;
    try {
      return validateSessionName(answer);
    } catch (error) {
      if (!(error instanceof InvalidSessionNameError)) throw error;
      ctx.out.line(`  ${error.message}`, "red");
    }
  }
}
