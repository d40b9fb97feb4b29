/**
 * `rescue --summarize`: ask claude for a thread's summary. The prompt (the
 * extract, under 5 KB) goes on stdin of `claude -p --no-session-persistence`,
 * so no transcript is left behind; any failure (claude missing, an error
 * result, an empty answer, a timeout) falls back to the mechanical summary
 * with a one-line note saying why.
 *
 * @module
 */

import { printFailure } from "../../platform/claude.ts";
import { errorMessage, InterruptedError } from "../../core/errors.ts";
import type { RescueExtract } from "../../transcript/rescue_extract.ts";
import { oneLine } from "../../transcript/tools.ts";
import type { AppContext } from "../context.ts";

/** A summary and where it came from. */
export interface Summary {
  text: string;
  source: "claude" | "mechanical";
  /** Why claude's summary was not used. */
  note?: string;
}

/** How long claude may take for one summary. */
const SUMMARY_TIMEOUT_MS = 120_000;

const SUMMARY_CHARS = 400;

/** The prompt sent to claude for one session. */
function summaryPrompt(extract: RescueExtract): string {
  return [
    "A Claude Code session died because its context overflowed. From the extract below,",
    "write a summary of one or two sentences (under 60 words): what the session set out",
    "to do and where it stopped. Reply with the summary only, no preamble.",
    "",
    "<extract>",
    JSON.stringify(extract, null, 1),
    "</extract>",
    "",
  ].join("\n");
}

/** Claude's summary of `extract`, or `fallback` with the reason when claude cannot give one. */
export async function summarizeWithClaude(
  ctx: AppContext,
  extract: RescueExtract,
  options: { fallback: string; cwd: string; timeoutMs?: number },
): Promise<Summary> {
  const fallback = (note: string): Summary => ({
    text: options.fallback,
    source: "mechanical",
    note,
  });
  const timeoutMs = options.timeoutMs ?? SUMMARY_TIMEOUT_MS;
  try {
    const answer = await (await ctx.tools.claude()).print(["--no-session-persistence"], {
      cwd: options.cwd,
      prompt: summaryPrompt(extract),
      timeoutMs,
    });
    const text = answer.result?.trim() ?? "";
    if (answer.run.timedOut) {
      return fallback(`claude did not answer within ${Math.round(timeoutMs / 1000)} s`);
    }
    if (answer.isError) return fallback(`claude failed: ${oneLine(printFailure(answer), 160)}`);
    if (text === "") return fallback("claude gave an empty summary");
    return { text: oneLine(text, SUMMARY_CHARS), source: "claude" };
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    return fallback(oneLine(errorMessage(error), 200));
  }
}
