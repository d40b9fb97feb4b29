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
  while (true) {
    // A pasted or piped name may carry escape sequences; the registry keeps none.
    const answer = cleanName(ctx.prompter.ask(question) ?? "");
    if (answer === "") return null;
    try {
      return validateSessionName(answer);
    } catch (error) {
      if (!(error instanceof InvalidSessionNameError)) throw error;
      ctx.out.line(`  ${error.message}`, "red");
    }
  }
}
