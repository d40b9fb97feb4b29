/**
 * What `export` says when it is done: one line (and a line each for skipped
 * lines and redactions), or with `--json` the result object.
 *
 * @module
 */

import { formatSize } from "../../core/format.ts";
import { safeJson } from "../../core/safe_text.ts";

/** The result of an export, as `--json` prints it. */
export interface ExportResult {
  sessionId: string;
  format: "md" | "html";
  /** The file written, or null for stdout. */
  output: string | null;
  bytes: number | null;
  /** Where the transcript was read: claude's folder, the vault or the backup folder. */
  source: "projects" | "vault" | "backup";
  sourcePath: string;
  turns: number;
  subagents: number;
  /** Lines of the transcripts that could not be read and are not in the export. */
  skippedLines: number;
  /** Secrets replaced by --redact; null without it. */
  redacted: number | null;
}

/** The lines that report `result`. */
export function exportResultLines(result: ExportResult, options: { json: boolean }): string[] {
  if (options.json) return [safeJson(result, 2)];
  const lines: string[] = [];
  const what = `${result.turns} ${result.turns === 1 ? "turn" : "turns"}` +
    (result.subagents > 0
      ? ` and ${result.subagents} subagent ${
        result.subagents === 1 ? "conversation" : "conversations"
      }`
      : "");
  if (result.output !== null) {
    lines.push(
      `Exported ${what} of ${result.sessionId} to ${result.output} (${
        formatSize(result.bytes ?? 0)
      }).`,
    );
  }
  if (result.source === "vault") {
    lines.push("Read from the vault: claude no longer has this transcript.");
  }
  if (result.source === "backup") {
    lines.push(`Read from claudecm's backup copy: ${result.sourcePath}`);
  }
  if (result.skippedLines > 0) {
    lines.push(
      `${result.skippedLines} ${result.skippedLines === 1 ? "line" : "lines"} of the transcript ` +
        "could not be read and are not in the export.",
    );
  }
  if (result.redacted !== null) {
    lines.push(
      `${result.redacted} secret-shaped ${result.redacted === 1 ? "string" : "strings"} ` +
        "replaced with [redacted].",
    );
  }
  return lines;
}
